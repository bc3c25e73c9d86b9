import type { FastifyRequest } from 'fastify';
import { logRefusedAttempt } from '../operations/refused-attempts';
import { hashToken } from '../sessions/tokens';
import { addressBlock } from '../throttle/address-block';
import { isThrottled, type FailureThrottle, type ThrottleRule } from '../throttle/failure-throttle';
import { readClientCredentials, SERVICE_DISABLED } from './checks/client-authentication';
import { OAuthError } from './oauth-error';

/** Wrong client secrets allowed per address before client authentication is refused for a while. */
export const CLIENT_AUTH_THROTTLE: ThrottleRule = { limit: 20, windowSeconds: 60 };

// Longer than any client_id issued: kept in the key by its hash, so a long one makes no long key.
const LONGEST_KEPT_CLIENT_ID = 64;

/** The client_id a request names, genuine or not, as a throttle key's part ('' when it names none readably). */
function claimedClientId(request: FastifyRequest): string {
  let clientId: string;
  try {
    clientId = readClientCredentials(request.headers.authorization, (request.body ?? {}) as { client_id?: string; client_secret?: string }).clientId;
  } catch {
    return '';
  }
  return clientId.length <= LONGEST_KEPT_CLIENT_ID ? clientId : hashToken(clientId);
}

/**
 * Runs client authentication, counting its failures per address and the client_id it names.
 * Never per client alone, which would let anyone lock a service out by sending it wrong secrets;
 * nor per address alone: the services of one Docker host share its address, and one sending a
 * wrong secret would lock all the others out of the token endpoint.
 */
export function clientAuthThrottle(throttle: FailureThrottle) {
  return async <T>(request: FastifyRequest, authenticate: () => Promise<T>): Promise<T> => {
    const keys: Array<[string, ThrottleRule]> = [[`client-auth:address:${addressBlock(request.ip)}:client:${claimedClientId(request)}`, CLIENT_AUTH_THROTTLE]];
    try {
      await throttle.check(keys);
    } catch (error) {
      if (isThrottled(error)) {
        logRefusedAttempt(request.log, { attempt: 'client-authentication', reason: 'throttled', ip: request.ip });
        throw new OAuthError('invalid_request', 'Too many failed client authentications; try again later', 429, undefined, error.headers);
      }
      throw error;
    }
    try {
      return await authenticate();
    } catch (error) {
      // A disabled service's right credentials are no guess: neither counted nor logged as one (the
      // fail2ban filter would ban the address it shares with the other services of its host).
      if (error instanceof OAuthError && error.error === 'invalid_client' && error.description !== SERVICE_DISABLED) {
        logRefusedAttempt(request.log, { attempt: 'client-authentication', reason: 'wrong-credentials', ip: request.ip, detail: error.description });
        await throttle.recordFailure(keys);
      }
      throw error;
    }
  };
}
