import type { FastifyInstance } from 'fastify';
import { OAuthError } from './oauth-error';

/**
 * application/x-www-form-urlencoded bodies as a plain object. A parameter without a value is
 * left out, as if not sent; a repeated one becomes a list. An endpoint's schema refuses a list
 * for a parameter it reads (RFC 6749 §3.1, §3.2), which the OAuth error handler words as a
 * repeat; one it does not know is ignored however often it comes (RFC 8707's `resource` may be).
 */
export function installFormBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    // No prototype: a parameter named toString or constructor is one like any other, not "repeated".
    const result: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    for (const [key, value] of new URLSearchParams(body.toString())) {
      if (key.includes('\0') || value.includes('\0')) return done(new OAuthError('invalid_request', 'The request contains a NUL character'), undefined);
      if (value === '') continue;
      const earlier = result[key];
      result[key] = earlier === undefined ? value : [earlier, value].flat();
    }
    done(null, result);
  });
}
