import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Strict CSP: scripts only from our origin, no framing (clickjacking), no plugins, no base
 * tag tricks. Inline styles are allowed because Mantine sets style attributes and CSS variables.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

// helmet's set, fixed once: helmet rebuilt its CSP string on every request (2% of a profile GET).
// Without helmet's Cross-Origin-Opener-Policy: same-origin, which cut a popup off from the window
// that opened it for good: a service signing in in a popup (oidc-client-ts's signinPopup, MSAL's
// loginPopup) never got its answer. Any page can be on the way (Sign In, the account picker).
const DOCUMENT_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  // HSTS only means something over TLS, which a reverse proxy in front of us terminates.
  'Strict-Transport-Security': 'max-age=31536000',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'DENY',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
} as const;

/**
 * What an API answer (JSON, or an avatar's bytes) needs, after OWASP's REST security cheat
 * sheet: it loads nothing and may be framed by nothing. The rest of helmet's set governs
 * documents (DNS prefetching, opener, download prompts) and only made every answer longer:
 * 13 headers instead of 6 cost userinfo 8% and the refresh grant 5% of their throughput,
 * measured in alternating slices, through the server and the client both parsing them.
 */
export const API_HEADERS = {
  // Tokens and personal data: kept in no cache of a shared device (RFC 6749 §5.1, ASVS 8.2.1).
  // Answers meant to be cached (discovery, JWKS, pictures) say so themselves.
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none';frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': DOCUMENT_HEADERS['Strict-Transport-Security'],
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
} as const;

/**
 * The operations endpoints, and anything under them: a probe set to `/readyz/` is told 404, not
 * served the app's page with a 200 that reads as ready whatever the database.
 */
const OPERATIONS = /^\/(?:api|metrics|healthz|readyz)(?:\/|$)/;

/** Paths no page is served at: their answers are JSON, pictures or metrics, and unknown ones a JSON 404. */
export const isApiPath = (url: string) => url.startsWith('/api/') || url.startsWith('/.well-known/') || url.startsWith('/avatars/') || OPERATIONS.test(withoutQuery(url));

const withoutQuery = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * The router decodes the address (`/%61pi/…` reaches `/api/…`), so a matched route decides by
 * its own path. Unmatched paths (the static files' wildcard, 404s) go by the address as sent.
 */
const servesApi = (request: FastifyRequest) => {
  const route = request.routeOptions.url;
  return isApiPath(request.url) || (route !== undefined && isApiPath(route));
};

/** The API set as raw header lines, for answers written straight to a socket (client-errors.ts). */
export const API_HEADER_LINES = Object.entries(API_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');

/** For answers made before any hook runs (the router's own refusals): JSON, so the API set. */
export function setApiHeaders(reply: FastifyReply): void {
  reply.headers(API_HEADERS);
}

/** Install before any other onRequest hook: one that throws would otherwise send its answer bare. */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(servesApi(request) ? API_HEADERS : DOCUMENT_HEADERS);
  });
}
