import type { FastifyRequest } from 'fastify';

// Enough for every address a home lab is reached at; past it, a flood of made-up hosts says nothing more.
const HOSTS_WARNED_AT_MOST = 20;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const sameName = (a: string, b: string) => a === b || (LOOPBACK.has(a) && LOOPBACK.has(b));

/**
 * Warns when a sign-in arrives addressed to another host than PUBLIC_URL's (behind a proxy with
 * PUBLIC_URL left at its default, say): services would be given an issuer and links that nobody
 * can reach. Once for each such host. A Host without a port matches PUBLIC_URL's name at any
 * port: proxies commonly pass the name alone (nginx's `$host`), and telling the operator to drop
 * the port would break every service. A route hook, on sign-in only, as the proxy warning is.
 */
export function publicUrlMismatchWarning(publicUrl: string) {
  const expected = new URL(publicUrl);
  const warned = new Set<string>();
  return async (request: FastifyRequest): Promise<void> => {
    // request.host is X-Forwarded-Host when the proxy is trusted, else the Host header.
    const host = request.host.toLowerCase();
    if (warned.has(host) || warned.size >= HOSTS_WARNED_AT_MOST || matches(host, expected)) return;
    warned.add(host);
    request.log.warn({ host: request.host, publicUrl }, `a sign-in came addressed to ${request.host}, but PUBLIC_URL is ${publicUrl}: services are given that issuer and its links. If ${request.host} is the address people use, set PUBLIC_URL to it`);
  };
}

function matches(host: string, expected: URL): boolean {
  if (!URL.canParse(`${expected.protocol}//${host}`)) return false;
  const seen = new URL(`${expected.protocol}//${host}`);
  const portGiven = /:\d+$/.test(host);
  return sameName(seen.hostname, expected.hostname) && (!portGiven || seen.port === expected.port);
}
