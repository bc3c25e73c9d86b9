import type { FastifyInstance } from 'fastify';

/**
 * The longest path parameter the router takes (Fastify's own limit is 100). Ids up to this long
 * reach the routes, whose schemas refuse a wrong one in the catalogue's words; longer is 414.
 */
export const MAX_PATH_PART_LENGTH = 1_000;

/** Whether a part of the path between slashes is longer than any route takes. */
export const hasOverlongPart = (url: string) => url.split('?')[0]!.split('/').some((part) => part.length > MAX_PATH_PART_LENGTH);

/**
 * The methods each API path answers, learnt from the routes as they are added, so that a known
 * path called with another method gets 405 with an Allow header (RFC 9110 §15.5.6) rather than
 * "not found": the caller has the address right and the method wrong. Install before the routes.
 */
export function learnAllowedMethods(app: FastifyInstance): (url: string) => string[] {
  const routes: { path: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    // The static files' catch-all answers GET anywhere; it says nothing about API paths.
    if (route.url.includes('*')) return;
    routes.push({ path: pathPattern(route.url), methods: [route.method].flat() });
  });
  return (url) => {
    const path = url.split('?')[0]!;
    const methods = new Set(routes.filter((route) => route.path.test(path)).flatMap((route) => route.methods));
    return [...methods].sort();
  };
}

/** '/api/v1/admin/users/:id' as a pattern a concrete path is matched against. */
function pathPattern(url: string): RegExp {
  const parts = url.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}$`);
}
