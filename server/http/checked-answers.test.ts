import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkedAnswers } from './checked-answers';

const serialize = checkedAnswers({ schema: z.object({ id: z.string(), count: z.number().int().nonnegative() }), method: 'GET', url: '/things', httpStatus: '200' });

describe('checkedAnswers', () => {
  it('writes an answer that fits its schema as JSON, leaving out what the schema does not name', () => {
    expect(serialize({ id: 'a', count: 0, secret_hash: 'x' })).toBe('{"id":"a","count":0}');
  });

  it('refuses one that does not fit, as fastify-type-provider-zod does (a 500 through the error handler)', () => {
    let thrown: unknown;
    try {
      serialize({ id: 'a', count: -1 });
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
  });
});
