import type { FastifyRequest } from 'fastify';
import { expect, it } from 'vitest';
import { bearerToken } from './authenticate';

const withHeader = (authorization: string | undefined) => bearerToken({ headers: { authorization } } as FastifyRequest);

it('reads the token of an Authorization: Bearer header as RFC 6750 §2.1 writes it', () => {
  expect(withHeader('Bearer abc.DEF-_~+/9==')).toBe('abc.DEF-_~+/9==');
  expect(withHeader('bearer abc'), 'the scheme in any case').toBe('abc');
  expect(withHeader('Bearer   abc  '), 'spaces around it').toBe('abc');
  expect(withHeader(undefined)).toBeUndefined();
});

it('takes nothing from a header that is not one Bearer credential', () => {
  for (const header of ['', 'Bearer', 'Bearer ', 'Bearerabc', 'Basic YTpi', 'Basic YTpi Bearer abc', 'XBearer abc', 'Bearer abc def', 'Bearer abc,Bearer def', 'Bearer a=b', 'Bearer "abc"']) {
    expect(withHeader(header), header).toBeUndefined();
  }
});
