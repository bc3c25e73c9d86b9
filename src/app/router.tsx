import { AUDIT_EVENT_GROUP_NAMES } from '../../contract/audit';
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect, type RouterHistory } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { RegisterPage } from '../features/auth/RegisterPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { SelectAccountPage } from '../features/auth/SelectAccountPage';
import { SignInPage } from '../features/auth/SignInPage';
import { NotAllowedPage, NotFoundPage } from '../features/errors/ErrorPages';
import { HomePage } from '../features/profile/HomePage';
import { PersonalInfoPage } from '../features/profile/PersonalInfoPage';
import { MainShell } from '../features/shell/MainShell';
import { AvatarStepPage } from '../features/verify/AvatarStepPage';
import { EmailStepPage } from '../features/verify/EmailStepPage';
import { OtpPage } from '../features/verify/OtpPage';
import { ReviewPage } from '../features/verify/ReviewPage';
import { rememberVerifyOrigin, requireStep } from '../features/verify/verify-flow';
import type { VerifyStep } from '../features/verify/verify-steps';
import { VerifyWelcomePage } from '../features/verify/VerifyWelcomePage';
import { z } from 'zod';
import { MAX_PAGE, searchField } from '../../contract/fields';
import { authorizationParamsSchema, endSessionRequestSchema } from '../../contract/oauth';
import { ConsentPage } from '../features/consent/ConsentPage';
import { SignOutPage } from '../features/signout/SignOutPage';
import type { AppSession } from '../session/start-session';
import { LoadingScreen } from '../ui/LoadingScreen';
import { lazyPage } from './lazy-page';
import { PageError } from './PageError';
import { parseSearch, stringifySearch } from './search-params';
import { fromSearchSchema, leaveAuthPagesWhenSignedIn, requireAdmin, requireSignIn, requireVerified } from './guards';

export type RouterContext = { session: AppSession };

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

// Auth pages: /auth/login, /auth/register, /auth/forgot-password, /auth/authenticate (not /auth itself).
const authPages = createRoute({
  getParentRoute: () => rootRoute,
  id: 'auth-pages',
  validateSearch: fromSearchSchema,
  beforeLoad: ({ context, search }) => leaveAuthPagesWhenSignedIn(context.session, search),
});
const loginRoute = createRoute({ getParentRoute: () => authPages, path: '/auth/login', component: () => <SignInPage search={loginRoute.useSearch()} /> });
const registerRoute = createRoute({ getParentRoute: () => authPages, path: '/auth/register', component: () => <RegisterPage search={registerRoute.useSearch()} /> });
const forgotPasswordRoute = createRoute({ getParentRoute: () => authPages, path: '/auth/forgot-password', component: () => <ForgotPasswordPage search={forgotPasswordRoute.useSearch()} /> });
const selectAccountRoute = createRoute({
  getParentRoute: () => authPages,
  path: '/auth/authenticate',
  beforeLoad: ({ context, search }) => {
    if (context.session.state.accounts.length === 0) throw redirect({ to: '/auth/login', search });
  },
  component: () => <SelectAccountPage search={selectAccountRoute.useSearch()} />,
});

// The authorization endpoint and RP-initiated logout: open to anyone, they decide themselves.
// A parameter past its limit fails the parse; the route's search then keeps the root's parameters as
// sent, and the server's check names the one at fault (an end-to-end test opens such a request).
const consentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth',
  validateSearch: (search: Record<string, unknown>) => authorizationParamsSchema.safeParse(search).data ?? {},
  component: () => <ConsentPage params={consentRoute.useSearch()} />,
});
// The mailed link: it works whoever is signed in on this device.
const resetPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: '/auth/reset-password', component: ResetPasswordPage });
const signOutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signout',
  validateSearch: (search: Record<string, unknown>) => endSessionRequestSchema.safeParse(search).data ?? {},
  component: () => <SignOutPage params={signOutRoute.useSearch()} />,
});

// Everything else needs a signed-in account; all but /verify also need a verified one.
const signedIn = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: ({ context, location }) => requireSignIn(context.session, location),
});
// The verification flow: each step shows only while the profile is at it (verify-flow.ts).
const atStep = (step: VerifyStep | 'any') => ({ context }: { context: RouterContext }) => requireStep(context.session, step);
const verifyRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/verify',
  validateSearch: fromSearchSchema,
  beforeLoad: ({ search }) => {
    if (search.from) rememberVerifyOrigin(search.from);
  },
});
const verifyWelcomeRoute = createRoute({
  getParentRoute: () => verifyRoute,
  path: '/',
  beforeLoad: atStep('any'),
  component: VerifyWelcomePage,
});
const verifyEmailRoute = createRoute({ getParentRoute: () => verifyRoute, path: '/email', beforeLoad: atStep('email'), component: EmailStepPage });
const verifyOtpRoute = createRoute({ getParentRoute: () => verifyRoute, path: '/email/otp', beforeLoad: atStep('email'), component: OtpPage });
const verifyAvatarRoute = createRoute({ getParentRoute: () => verifyRoute, path: '/avatar', beforeLoad: atStep('avatar'), component: AvatarStepPage });
const verifyReviewRoute = createRoute({ getParentRoute: () => verifyRoute, path: '/review', beforeLoad: atStep('review'), component: ReviewPage });
const verified = createRoute({
  getParentRoute: () => signedIn,
  id: 'verified',
  beforeLoad: ({ context, location }) => requireVerified(context.session, location),
  component: MainShell,
});
const homeRoute = createRoute({ getParentRoute: () => verified, path: '/', component: HomePage });
const personalInfoRoute = createRoute({ getParentRoute: () => verified, path: '/personal-info', component: PersonalInfoPage });
const notAllowedRoute = createRoute({ getParentRoute: () => verified, path: '/not-allowed', component: NotAllowedPage });

const adminRoute = createRoute({
  getParentRoute: () => verified,
  path: '/admin',
  beforeLoad: ({ context }) => requireAdmin(context.session),
});
const adminIndexRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/admin/api-services' });
  },
});
// The admin area loads on demand: people who are not administrators never download it.
const listSearch = z.object({ search: searchField.optional().catch(undefined) });
// A page the server would refuse (past MAX_PAGE) is the first page, as any other unreadable one.
const pageSearch = listSearch.extend({ page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1).default(1) });
const ServicesListPage = lazyPage(() => import('../features/admin/api-services/ServicesListPage'), 'ServicesListPage');
const CreateServicePage = lazyPage(() => import('../features/admin/api-services/CreateServicePage'), 'CreateServicePage');
const ServiceViewPage = lazyPage(() => import('../features/admin/api-services/ServiceViewPage'), 'ServiceViewPage');
const EditServicePage = lazyPage(() => import('../features/admin/api-services/EditServicePage'), 'EditServicePage');
const UsersListPage = lazyPage(() => import('../features/admin/users/UsersListPage'), 'UsersListPage');
const CreateUserPage = lazyPage(() => import('../features/admin/users/CreateUserPage'), 'CreateUserPage');
const UserViewPage = lazyPage(() => import('../features/admin/users/UserViewPage'), 'UserViewPage');
const EditUserPage = lazyPage(() => import('../features/admin/users/EditUserPage'), 'EditUserPage');
const UserSessionsPage = lazyPage(() => import('../features/admin/sessions/SessionsPages'), 'UserSessionsPage');
const ServiceSessionsPage = lazyPage(() => import('../features/admin/sessions/SessionsPages'), 'ServiceSessionsPage');
const AuditLogPage = lazyPage(() => import('../features/admin/audit-log/AuditLogPage'), 'AuditLogPage');

const servicesList = createRoute({ getParentRoute: () => adminRoute, path: '/api-services', validateSearch: listSearch, component: () => <ServicesListPage search={servicesList.useSearch()} /> });
const serviceCreate = createRoute({ getParentRoute: () => adminRoute, path: '/api-services/create', component: () => <CreateServicePage /> });
const serviceView = createRoute({ getParentRoute: () => adminRoute, path: '/api-services/view/$serviceId', component: () => <ServiceViewPage serviceId={serviceView.useParams().serviceId} /> });
const serviceEdit = createRoute({ getParentRoute: () => adminRoute, path: '/api-services/edit/$serviceId', component: () => <EditServicePage serviceId={serviceEdit.useParams().serviceId} /> });
const usersList = createRoute({ getParentRoute: () => adminRoute, path: '/users', validateSearch: listSearch, component: () => <UsersListPage search={usersList.useSearch()} /> });
const userCreate = createRoute({ getParentRoute: () => adminRoute, path: '/users/create', component: () => <CreateUserPage /> });
const userView = createRoute({ getParentRoute: () => adminRoute, path: '/users/view/$userId', component: () => <UserViewPage userId={userView.useParams().userId} /> });
const userEdit = createRoute({ getParentRoute: () => adminRoute, path: '/users/edit/$userId', component: () => <EditUserPage userId={userEdit.useParams().userId} /> });
const userSessions = createRoute({ getParentRoute: () => adminRoute, path: '/user-sessions', validateSearch: pageSearch, component: () => <UserSessionsPage search={userSessions.useSearch()} /> });
const serviceSessions = createRoute({ getParentRoute: () => adminRoute, path: '/service-sessions', validateSearch: pageSearch, component: () => <ServiceSessionsPage search={serviceSessions.useSearch()} /> });
const auditLogSearch = pageSearch.extend({ user: z.string().max(64).optional().catch(undefined), ip: z.string().max(64).optional().catch(undefined), group: z.enum(AUDIT_EVENT_GROUP_NAMES).optional().catch(undefined) });
const auditLog = createRoute({ getParentRoute: () => adminRoute, path: '/audit-log', validateSearch: auditLogSearch, component: () => <AuditLogPage search={auditLog.useSearch()} /> });
const adminScreens = [servicesList, serviceCreate, serviceView, serviceEdit, usersList, userCreate, userView, userEdit, userSessions, serviceSessions, auditLog];

const routeTree = rootRoute.addChildren([
  authPages.addChildren([loginRoute, registerRoute, forgotPasswordRoute, selectAccountRoute]),
  consentRoute,
  resetPasswordRoute,
  signOutRoute,
  signedIn.addChildren([verifyRoute.addChildren([verifyWelcomeRoute, verifyEmailRoute, verifyOtpRoute, verifyAvatarRoute, verifyReviewRoute]), verified.addChildren([homeRoute, personalInfoRoute, notAllowedRoute, adminRoute.addChildren([adminIndexRoute, ...adminScreens])])]),
]);

export function createAppRouter(session: AppSession, history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    context: { session },
    defaultPreload: false,
    scrollRestoration: true,
    parseSearch,
    stringifySearch,
    // The guards wait for the profile (spec §2: a spinner while authenticating). Without a pending
    // screen the router shows nothing meanwhile; a quick answer shows no spinner at all.
    defaultPendingComponent: () => <LoadingScreen label="Loading your account..." />,
    defaultErrorComponent: PageError,
    defaultPendingMs: 150,
    defaultPendingMinMs: 250,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
