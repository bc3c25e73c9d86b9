import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installDefaultMessages } from './default-messages';

installDefaultMessages();
const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('default messages', () => {
  const body = z.object({ name: z.string().min(2).max(5), tags: z.array(z.string()).min(1).max(2), age: z.number().int().min(0).max(130), on: z.boolean() }).strict();
  const valid = { name: 'Ada', tags: ['x'], age: 36, on: true };

  it('say what a field must be, after its name', () => {
    expect(messages(body, { ...valid, name: 5, on: 'yes', tags: 'x' })).toEqual(['name: must be a string', 'tags: must be a list', 'on: must be true or false']);
    expect(messages(body, { tags: ['x'], age: 1, on: true })).toEqual(['name: is required']);
    expect(messages(body, { ...valid, name: 'A', tags: [] })).toEqual(['name: must be at least 2 characters', 'tags: must have at least 1 item']);
    expect(messages(body, { ...valid, name: 'Adaline', tags: ['a', 'b', 'c'], age: 200 })).toEqual(['name: must be at most 5 characters', 'tags: must have at most 2 items', 'age: must be at most 130']);
    expect(messages(body, { ...valid, age: -1 })).toEqual(['age: must be at least 0']);
    expect(messages(z.object({ name: z.string().min(1) }), { name: '' })).toEqual(['name: is required']);
    const one = z.object({ initial: z.string().max(1), pick: z.array(z.string()).max(1), pair: z.array(z.string()).min(2) });
    expect(messages(one, { initial: 'AB', pick: ['a', 'b'], pair: ['a'] })).toEqual(['initial: must be at most 1 character', 'pick: must have at most 1 item', 'pair: must have at least 2 items']);
    expect(messages(z.object({ code: z.string().min(2).max(2) }), { code: 'A' })).toEqual(['code: must be at least 2 characters']);
  });

  it('name unknown fields, a few and shortened', () => {
    expect(messages(body, { ...valid, x: 1 })).toEqual([': Unknown field "x": this request does not take it']);
    expect(messages(body, { ...valid, ['k'.repeat(50)]: 1 })).toEqual([`: Unknown field "${'k'.repeat(40)}…": this request does not take it`]);
    expect(messages(body, { ...valid, ['k'.repeat(40)]: 1 })).toEqual([`: Unknown field "${'k'.repeat(40)}": this request does not take it`]);
    expect(messages(body, { ...valid, a: 1, b: 2, c: 3 })).toEqual([': Unknown fields "a", "b", "c": this request does not take them']);
    expect(messages(body, { ...valid, a: 1, b: 2, c: 3, d: 4, e: 5 })).toEqual([': Unknown fields "a", "b", "c" and 2 more: this request does not take them']);
  });

  it('say an object is wanted where there is none (the error helper names the body, at the top of one)', () => {
    for (const value of [[], 'text', 1, null]) expect(messages(body, value)).toEqual([': must be an object']);
    expect(messages(body, undefined)).toEqual([': is required']);
    expect(messages(z.object({ request: z.object({ a: z.string() }) }), { request: [] })).toEqual(['request: must be an object']);
  });

  it("leave a schema's own message alone", () => {
    expect(messages(z.string({ error: 'Name is required' }).max(3, 'Name is too long'), 'Adaline')).toEqual([': Name is too long']);
    expect(messages(z.object({ name: z.string({ error: 'Name is required' }) }), {})).toEqual(['name: Name is required']);
  });
});
