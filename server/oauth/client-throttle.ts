import type { FastifyRequest } from 'fastify';
import { logRefusedAttempt } from '../operations/refused-attempts';
import { addressBlock } from '../throttle/address-block';
import { isThrottled, type FailureThrottle, type ThrottleRule } from '../throttle/failure-throttle';
import { OAuthError } from './oauth-error';

/** Wrong client secrets allowed per address before client authentication is refused for a while. */
export const CLIENT_AUTH_THROTTLE: ThrottleRule = { limit: 20, windowSeconds: 60 };

/**
 * Runs client authentication, counting its failures per address (never per client, which
 * would let anyone lock a service out by sending it wrong secrets).
 */
export function clientAuthThrottle(throttle: FailureThrottle) {
  return async <T>(request: FastifyRequest, authenticate: () => Promise<T>): Promise<T> => {
    const keys: Array<[string, ThrottleRule]> = [[`client-auth:address:${addressBlock(request.ip)}`, CLIENT_AUTH_THROTTLE]];
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
      if (error instanceof OAuthError && error.error === 'invalid_client') {
        logRefusedAttempt(request.log, { attempt: 'client-authentication', reason: 'wrong-credentials', ip: request.ip, detail: error.description });
        await throttle.recordFailure(keys);
      }
      throw error;
    }
  };
}
