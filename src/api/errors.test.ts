import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, errorMessage, messageFromResponseText, NOT_UNDERSTOOD, UNREACHABLE } from './errors';

describe('error messages (spec §8)', () => {
  it('takes the error field, else the text, else the fallback, capitalised', () => {
    expect(messageFromResponseText('{"error":"email is already registered"}')).toBe('Email is already registered');
    expect(messageFromResponseText('bad gateway')).toBe('Bad gateway');
    expect(messageFromResponseText('')).toBe('Unexpected error happened');
    expect(messageFromResponseText('{"detail":"x"}')).toBe('{"detail":"x"}');
  });

  it("shows no proxy's HTML error page as a message", () => {
    expect(messageFromResponseText('<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>')).toBe('Unexpected error happened');
    expect(messageFromResponseText('  <!DOCTYPE html><html><body>Service Unavailable</body></html>')).toBe('Unexpected error happened');
    expect(messageFromResponseText('<3 is not a valid age')).toBe('<3 is not a valid age');
  });

  it("says the server cannot be reached in place of the browser's own words for no answer", () => {
    for (const words of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']) expect(errorMessage(new TypeError(words))).toBe(UNREACHABLE);
    // Through the worker's message port a TypeError arrives as an Error named so.
    expect(errorMessage(Object.assign(new Error('Failed to fetch'), { name: 'TypeError' }))).toBe(UNREACHABLE);
    expect(errorMessage(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe("Cannot read properties of undefined (reading 'x')");
  });

  it("says an answer was not understood in place of the parser's own words", () => {
    const notJson = (() => {
      try {
        JSON.parse('<html>Sign in to the proxy</html>');
      } catch (error) {
        return error;
      }
    })();
    expect(errorMessage(notJson)).toBe(NOT_UNDERSTOOD);
    const wrongShape = z.object({ id: z.string() }).safeParse({ id: 7 }).error;
    expect(wrongShape?.message).toContain('expected string');
    expect(errorMessage(wrongShape)).toBe(NOT_UNDERSTOOD);
  });

  it('describes any thrown value', () => {
    expect(errorMessage(new ApiError(409, '{"error":"taken"}'))).toBe('Taken');
    expect(errorMessage(new Error('failed to fetch'))).toBe('Failed to fetch');
    // Only a TypeError is the browser's "no answer": the same words from elsewhere are shown as they are.
    expect(errorMessage(new Error('Load failed'))).toBe('Load failed');
    expect(errorMessage('???')).toBe('Unexpected error happened');
  });
});
