import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { z } from 'zod';
import type { Profile } from '../../contract/accounts';
import type { Session } from '../session/session-store';

/**
 * Only a path on this origin may be returned to: '/x', never '//evil.example' or
 * 'https://evil.example' (an open redirect through the sign-in page).
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/')) return undefined;
  // Read as the browser will go there: it drops tabs and line breaks ('/\t/evil.example' is
  // '//evil.example') and takes '\' for '/'. What passes comes back as the parser wrote it.
  let url: URL;
  try {
    url = new URL(value, RETURN_BASE);
  } catch {
    return undefined; // '/\t/[' is '//[': a host no parser takes
  }
  return url.origin === RETURN_BASE ? url.pathname + url.search + url.hash : undefined;
}
const RETURN_BASE = 'https://home-guard.invalid';

/** The `from` search parameter that carries where to return after signing in or verifying. */
export const fromSearchSchema = z.object({
  from: z.string().optional().catch(undefined).transform(safeReturnPath),
});
export type FromSearch = z.infer<typeof fromSearchSchema>;

export const isFullyVerified = (profile: Profile) => profile.email_verified && profile.avatar_verified && profile.verified;

/** Pages that need a signed-in account: send the visitor to pick or sign in, remembering the page. */
export function requireSignIn(session: Session, location: ParsedLocation): void {
  if (!session.state.signInRequired && session.state.activeAccount) return;
  throw redirect({ to: session.state.accounts.length > 0 ? '/auth/authenticate' : '/auth/login', search: { from: location.href } });
}

/** Any profile flag still false: the verification flow comes first. */
export async function requireVerified(session: Session, location: ParsedLocation): Promise<void> {
  await session.ensureAuthenticated();
  const profile = session.state.profile;
  if (profile && !isFullyVerified(profile)) throw redirect({ to: '/verify', search: { from: location.href } });
}

/** Auth pages: a signed-in visitor goes back where they came from, or home. */
export function leaveAuthPagesWhenSignedIn(session: Session, search: FromSearch): void {
  if (session.state.signInRequired || !session.state.activeAccount) return;
  const target = safeReturnPath(search.from);
  throw target ? redirect({ href: target }) : redirect({ to: '/' });
}

/** The profile could not be loaded (offline, or the server failed): whether this is an administrator is not known. */
export class ProfileUnavailable extends Error {
  constructor() {
    super('Your account could not be loaded');
    this.name = 'ProfileUnavailable';
  }
}

export async function requireAdmin(session: Session): Promise<void> {
  await session.ensureAuthenticated();
  const profile = session.state.profile;
  // Not known is not "not allowed": the page says it needs the connection, and tries again.
  if (!profile) throw new ProfileUnavailable();
  if (!profile.is_admin) throw redirect({ to: '/not-allowed' });
}
