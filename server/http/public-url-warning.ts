import type { FastifyRequest } from 'fastify';

/**
 * Warns once when a sign-in arrives addressed to another host than PUBLIC_URL's (behind a proxy
 * with PUBLIC_URL left at its default, say): services would be given an issuer and links that
 * nobody can reach. A route hook, on sign-in only, as the proxy warning is.
 */
export function publicUrlMismatchWarning(publicUrl: string) {
  const expected = new URL(publicUrl).host;
  let warned = false;
  return async (request: FastifyRequest): Promise<void> => {
    // request.host is X-Forwarded-Host when the proxy is trusted, else the Host header.
    if (warned || request.host.toLowerCase() === expected) return;
    warned = true;
    request.log.warn({ host: request.host, publicUrl }, `a sign-in came addressed to ${request.host}, but PUBLIC_URL is ${publicUrl}: services are given that issuer and its links. If ${request.host} is the address people use, set PUBLIC_URL to it`);
  };
}
