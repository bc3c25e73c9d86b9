import type { ApiServiceRow } from '../../api-services/api-services-repository';

/**
 * Whether an earlier approval may stand for this request. A public client sent back to an app's
 * own scheme or to loopback cannot prove who it is: another app can claim the scheme or listen on
 * the port. RFC 8252 §8.6 has such requests asked afresh each time; only https is assured.
 */
export const identityAssured = (service: Pick<ApiServiceRow, 'public_client'>, redirectUri: string): boolean =>
  service.public_client !== 1 || redirectUri.startsWith('https://');
