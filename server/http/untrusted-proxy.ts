import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * Warns once when sign-ins arrive with X-Forwarded-For that TRUST_PROXY does not let through:
 * every client then shares the proxy's address, so one guesser uses up the address throttle for
 * all, and fail2ban, reading that address in the log, would ban the proxy. A route hook, on
 * sign-in only, so no other request pays for the check.
 */
export function untrustedProxyWarning(trustProxy: Config['trustProxy']) {
  let warned = trustProxy === true; // every proxy trusted: the header is always used
  return async (request: FastifyRequest): Promise<void> => {
    // request.ips stops at the first address not trusted: the connection's own, when the proxy is not.
    if (warned || request.headers['x-forwarded-for'] === undefined || (request.ips?.length ?? 1) > 1) return;
    warned = true;
    const fix = trustProxy === false ? 'TRUST_PROXY is not set' : `${request.ip} is not among TRUST_PROXY's addresses`;
    request.log.warn({ proxy: request.ip }, `a sign-in came through a proxy (X-Forwarded-For), but ${fix}: every client seems to come from the proxy's address, in the sign-in throttle and in the log. Set TRUST_PROXY to the proxy's address`);
  };
}
