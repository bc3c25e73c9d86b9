import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

// A \u escape of a surrogate, of which only a pair makes a character (RFC 8259 §8.2).
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

// A high surrogate with no low one after it, or a low one with no high one before it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a parsed value holds a string, or key, with half a character in it. Walked with a list,
 * not by recursion: 64 KB of JSON nests 32,000 deep, past the call stack.
 */
function holdsLoneSurrogate(parsed: unknown): boolean {
  const pending = [parsed];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) return true;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, inner] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return true;
      pending.push(inner);
    }
  }
  return false;
}

/**
 * The API's JSON bodies. Text that is no UTF-8, or an escape of half a character, is refused:
 * read as it came, it would be stored changed (bytes replaced by U+FFFD, or a string SQLite
 * keeps as bytes that read back as three U+FFFD), so an email saved that way could not be
 * typed to sign in. Calls without a payload may send an empty body with a JSON content type.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (!isUtf8(body as Buffer)) return done(AppError.notUtf8(), undefined);
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (/\\u0000|\0/.test(text)) return done(AppError.nulCharacter(), undefined);
    // The parser refuses keys that could reach an object's prototype, in the words it has for
    // broken JSON: JSON that parses is told the real reason.
    parseJson(request, text, (error, value) => {
      if (error) return done(isJson(text) ? AppError.prototypeKey() : error, undefined);
      if (SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value)) return done(AppError.loneSurrogate(), undefined);
      done(null, value);
    });
  });
}
