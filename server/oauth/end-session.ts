import { redirectWith, type EndSessionRequest } from '../../contract/oauth';
import type { ApiServicesRepository } from '../api-services/api-services-repository';
import { omittingEmpty } from './authorization-request';
import type { IdTokenHints } from './id-token-hints';
import type { ServiceSessionsRepository } from './service-sessions-repository';
import { storedList } from '../db/stored-list';

/**
 * RP-initiated logout: ends the service session the ID token names and says where to return.
 * The browser goes back only to a URI registered for that service, matched byte for byte.
 */
export class EndSession {
  constructor(
    private readonly hints: IdTokenHints,
    private readonly services: ApiServicesRepository,
    private readonly serviceSessions: ServiceSessionsRepository,
    private readonly clock: () => number,
  ) {}

  /**
   * Answers the end-session response (`subject` only for a hint of a live session), and which
   * service session it ended (for the audit log).
   */
  async end(sent: EndSessionRequest): Promise<{ redirect_to: string | null; subject: string | null; ended: { userId: string; serviceId: string } | null }> {
    const request = omittingEmpty(sent);
    const hint = request.id_token_hint ? await this.hints.read(request.id_token_hint) : null;
    // A hint that is not one of our ID tokens is no ground to act on, client_id or not
    // (RP-Initiated Logout §4: what failed validation must not be used).
    if (request.id_token_hint && !hint) return { redirect_to: null, subject: null, ended: null };
    const clientId = request.client_id ?? hint?.aud[0];
    const service = clientId ? await this.services.findByClientId(clientId) : undefined;
    if (hint && service && !hint.aud.includes(service.client_id)) return { redirect_to: null, subject: null, ended: null };

    let ended: { userId: string; serviceId: string } | null = null;
    let subject: string | null = null;
    if (hint?.sid && service) {
      const session = await this.serviceSessions.findSession(hint.sid);
      if (session && session.service_id === service.id && session.user_id === hint.sub) {
        // Only a hint of a session still open names whom this device signs out: an old ID token
        // (they leak through URLs and logs) would do it unasked (RP-Initiated Logout §2: ask).
        if (session.revoked_at === null && session.expires_at > this.clock()) subject = session.user_id;
        if (await this.serviceSessions.revokeSession(session.id, this.clock())) ended = { userId: session.user_id, serviceId: service.id };
      }
    }
    let redirectTo: string | null = null;
    // A disabled service still has its session ended, but no one is sent back to it.
    if (service?.is_active === 1 && request.post_logout_redirect_uri) {
      const allowed = [...storedList(service.redirect_uris), ...storedList(service.post_logout_redirect_uris)];
      if (allowed.includes(request.post_logout_redirect_uri)) redirectTo = redirectWith(request.post_logout_redirect_uri, { state: request.state });
    }
    return { redirect_to: redirectTo, subject, ended };
  }
}
