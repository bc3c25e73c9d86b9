import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import { hasOverlongPart } from './allowed-methods';
import { isApiPath } from './security-headers';

// Files whose name never changes must be revalidated, or users keep an old version forever.
const ALWAYS_REVALIDATE = new Set(['index.html', 'sw.js', 'manifest.webmanifest', 'registerSW.js']);

function cacheControlFor(filePath: string): string {
  // A precompressed variant (index.html.br) is cached as the file it stands for.
  const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
  if (ALWAYS_REVALIDATE.has(name)) return 'no-cache';
  // Vite puts content-hashed files in assets/.
  if (filePath.split(path.sep).includes('assets')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}


/**
 * Serves the built PWA with an SPA fallback: unknown page paths get index.html so the app can
 * show its own 404; unknown API paths get a JSON 404, and known ones called with another method a 405.
 */
export async function installStaticFiles(app: FastifyInstance, staticDir: string | undefined, allowedMethods: (url: string) => string[]): Promise<void> {
  const hasPwa = staticDir !== undefined && existsSync(path.join(staticDir, 'index.html'));
  if (hasPwa) {
    await app.register(fastifyStatic, {
      root: staticDir,
      // The build writes .br and .gz beside each text file (scripts/vite-precompress-plugin.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('Cache-Control', cacheControlFor(filePath)),
    });
  } else if (staticDir !== undefined) {
    app.log.warn(`no built PWA in ${staticDir}: serving the API only (run \`npm run build\`)`);
  }

  // Not async, and the reply not returned: each await of a reply adds a listener to the response,
  // and a path the static files refuse comes here through the error handler, one step more, past
  // Node's warning at 11 ("Possible EventEmitter memory leak"), written to stderr per request.
  app.setNotFoundHandler((request, reply) => {
    const pagePath = request.method === 'GET' || request.method === 'HEAD';
    // A built file that is not there (an old version's, asked for by a tab opened before a
    // release) is no page: the page in its place would be taken for the file, and kept.
    if (request.url.startsWith('/assets/')) throw AppError.notFound('file');
    if (hasPwa && pagePath && !isApiPath(request.url)) {
      void reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
      return;
    }
    if (!isApiPath(request.url)) throw AppError.notFound('page');
    // Only the static files' catch-all takes a GET with an id too long for its route: answered as
    // the router answers any other method there.
    if (hasOverlongPart(request.url)) throw AppError.addressTooLong();
    const allowed = allowedMethods(request.url);
    throw allowed.length > 0 ? AppError.methodNotAllowed(request.method, allowed) : AppError.notFound('API endpoint');
  });
}
