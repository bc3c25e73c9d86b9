import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { AccountsService } from './accounts/accounts-service';
import { PasswordResets, RESET_MAIL_DELAY_MS } from './accounts/password-resets';
import { SignIn } from './accounts/sign-in';
import { UsersRepository } from './accounts/users-repository';
import type { Config } from './config';
import type { Database } from './db/database';
import { requireBearer } from './http/authenticate';
import { loggedRequest } from './http/request-log';
import { SigningKeys } from './keys/signing-keys';
import { AccessTokens } from './sessions/access-tokens';
import { UserSessionsRepository } from './sessions/user-sessions-repository';
import { UserSessionsService, type Authenticated } from './sessions/user-sessions-service';
import { FailureThrottle } from './throttle/failure-throttle';
import { SessionsAdmin } from './admin/sessions-admin';
import { UsersAdmin } from './admin/users-admin';
import { ApiServicesRepository } from './api-services/api-services-repository';
import { ApiServicesService } from './api-services/api-services-service';
import { Avatars } from './avatars/avatars';
import { AppError } from './errors';
import { Launcher } from './launcher/launcher';
import { createMailer, type Mailer } from './mail/mailer';
import { noticeSender } from './mail/security-notice';
import { EmailCodes } from './verification/email-codes';
import { Authorization } from './oauth/authorization';
import { clientAuthThrottle } from './oauth/client-throttle';
import { EndSession } from './oauth/end-session';
import { IdTokenHints } from './oauth/id-token-hints';
import { LastActiveBatch } from './oauth/last-active-batch';
import { ServiceSessionsRepository } from './oauth/service-sessions-repository';
import { SignedInServices } from './oauth/signed-in-services';
import { TokenEndpoint } from './oauth/token-endpoint';
import { TokenIntrospection } from './oauth/token-introspection';
import { TokenIssuer } from './oauth/token-issuer';
import { BackgroundWork } from './operations/background-work';
import { ExpiredRows } from './retention/expired-rows';
import { AuthenticatorApps } from './two-step/authenticator-apps';
import { AuditLog } from './audit/audit-log';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `services.authenticate` on routes that require a signed-in user. */
    auth?: Authenticated;
    /** Set by the error handler when the refusal is a step of a flow (sign-in asking for the code). */
    answeredExpectedRefusal?: boolean;
  }
}

export type Clock = () => number;

/** The warn line for a signed-in account that is not an administrator refused an admin route. */
export const ADMIN_ROUTE_REFUSED = 'an account that is not an administrator was refused an admin route';

export type ServiceOptions = {
  clock?: Clock;
  /** Seconds a rotated refresh token stays usable when its answer was lost (default 30). */
  refreshGraceSeconds?: number;
  /** Replaces the configured mail transport (SMTP_URL or the outbox). */
  mailer?: Mailer;
  /** The range of the random wait before a reset link is mailed (RESET_MAIL_DELAY_MS). */
  resetMailDelayMs?: readonly [min: number, max: number];
};

export type Services = Awaited<ReturnType<typeof createServices>>;

/** Wires the capabilities together over one database; the only place that knows them all. */
export async function createServices(config: Config, db: Database, log: FastifyBaseLogger, options: ServiceOptions = {}) {
  const clock = options.clock ?? Date.now;
  // An ID token can come back as a sign-out's hint for as long as a sign-in lasts.
  const hintsKeptMs = Math.max(config.sessionMaxAge, config.refreshTokenTtl) * 1000;
  const keys = new SigningKeys(db, clock, hintsKeptMs);
  await keys.ensure();
  const accessTokens = new AccessTokens(keys, config.publicUrl, config.accessTokenTtl, clock);
  const userSessionsRepository = new UserSessionsRepository(db);
  const audit = new AuditLog(db, clock);
  const sessions = new UserSessionsService(
    userSessionsRepository,
    accessTokens,
    { refreshTokenTtlSeconds: config.refreshTokenTtl, sessionMaxAgeSeconds: config.sessionMaxAge, refreshGraceSeconds: options.refreshGraceSeconds ?? 30 },
    audit,
    clock,
  );
  const throttle = new FailureThrottle(db, clock);
  const users = new UsersRepository(db);
  const mailer = options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir });
  const background = new BackgroundWork();
  const notify = noticeSender(mailer, log, background);
  const authenticatorApps = new AuthenticatorApps(db, notify, log, clock);
  const serviceSessions = new ServiceSessionsRepository(db);
  const signIn = new SignIn(users, sessions, throttle, authenticatorApps, { log, notify, audit, background }, clock);
  const accounts = new AccountsService(users, sessions, serviceSessions, throttle, authenticatorApps, signIn, { registration: config.registration, log, notify }, clock);
  const emailCodes = new EmailCodes(db, users, throttle, mailer, log, clock);
  const passwordResets = new PasswordResets(db, users, accounts, signIn, throttle, mailer, { publicUrl: config.publicUrl, log, audit, background, mailDelayMs: options.resetMailDelayMs ?? RESET_MAIL_DELAY_MS }, clock);
  const avatars = new Avatars(db, clock);

  const apiServicesRepository = new ApiServicesRepository(db);
  const apiServices = new ApiServicesService(apiServicesRepository, clock);
  const hints = new IdTokenHints(keys, config.publicUrl);
  const lastActive = new LastActiveBatch((entries) => serviceSessions.touchMany(entries), log);
  const tokenIssuer = new TokenIssuer(keys, config.publicUrl, config.accessTokenTtl, clock);
  const oauth = {
    services: apiServicesRepository,
    authorization: new Authorization(apiServicesRepository, users, userSessionsRepository, serviceSessions, hints, authenticatorApps, config.publicUrl, clock),
    tokens: new TokenEndpoint(serviceSessions, tokenIssuer, { refreshTokenTtlSeconds: config.refreshTokenTtl, sessionMaxAgeSeconds: config.sessionMaxAge }, audit, clock),
    introspection: new TokenIntrospection(serviceSessions, lastActive, config.sessionMaxAge, config.publicUrl, clock),
    endSession: new EndSession(hints, apiServicesRepository, serviceSessions, clock),
    signedInServices: new SignedInServices(db, clock),
  };
  const oauthClientThrottle = clientAuthThrottle(throttle);
  const usersAdmin = new UsersAdmin(db, accounts, sessions, serviceSessions, authenticatorApps, notify, clock);
  const launcher = new Launcher(db);
  const sessionsAdmin = new SessionsAdmin(db, userSessionsRepository, serviceSessions, clock);
  // A rotated refresh token is kept as long as a session lives idle: a stolen copy used within that revokes.
  const expiredRows = new ExpiredRows(db, { rotatedRefreshTokensKeptMs: config.refreshTokenTtl * 1000, auditEventsKeptMs: config.auditLogDays * 24 * 3_600_000, signingKeysKeptMs: hintsKeptMs }, clock, mailer);

  /** onRequest hook (before the body is read): admits a request with a valid access token of a live session. */
  const authenticate = async (request: FastifyRequest) => {
    request.auth = await sessions.authenticate(requireBearer(request));
  };
  /**
   * onRequest hook: as `authenticate`, and the account must be an administrator (403 otherwise).
   * The app offers the admin area to administrators only, so a refusal is someone trying the API
   * by hand, or a tab left open after losing the role: logged (ASVS V7.2.2), at warn, not error.
   */
  const requireAdmin = async (request: FastifyRequest) => {
    await authenticate(request);
    if (request.auth!.isAdmin) return;
    request.log.warn({ userId: request.auth!.userId, ...loggedRequest(request), ip: request.ip }, ADMIN_ROUTE_REFUSED);
    throw AppError.forbidden();
  };

  return { config, db, clock, audit, keys, accessTokens, sessions, throttle, notify, accounts, signIn, authenticatorApps, emailCodes, passwordResets, avatars, apiServices, oauth, oauthClientThrottle, launcher, usersAdmin, sessionsAdmin, authenticate, requireAdmin, lifecycle: { draining: false }, lastActive, expiredRows, background };
}
