import type { FastifyInstance } from 'fastify';
import { OAuthError, repeatedParameters } from './oauth-error';

/**
 * application/x-www-form-urlencoded bodies as a plain object. A parameter without a value is
 * left out, as if not sent; a repeated one is refused (RFC 6749 §3.1, §3.2).
 */
export function installFormBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    // No prototype: a parameter named toString or constructor is one like any other, not "repeated".
    const result: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [key, value] of new URLSearchParams(body.toString())) {
      if (key.includes('\0') || value.includes('\0')) return done(new OAuthError('invalid_request', 'The request contains a NUL character'), undefined);
      if (value === '') continue;
      if (Object.hasOwn(result, key)) return done(repeatedParameters([key]), undefined);
      result[key] = value;
    }
    done(null, result);
  });
}
