import { describe, expect, it } from 'vitest';
import { sameBytes } from './constant-time';

describe('sameBytes', () => {
  it('is true only for the same bytes', () => {
    expect(sameBytes('abc', 'abc')).toBe(true);
    expect(sameBytes(Buffer.from('abc'), 'abc')).toBe(true);
    expect(sameBytes('abc', 'abd')).toBe(false);
    expect(sameBytes('', '')).toBe(true);
  });

  it('is false, not an error, for different lengths', () => {
    expect(sameBytes('abc', 'abcd')).toBe(false);
    expect(sameBytes(Buffer.alloc(32), Buffer.alloc(31))).toBe(false);
    expect(sameBytes('abc', '')).toBe(false);
  });

  it('compares bytes, not characters', () => {
    expect(sameBytes('é', 'e\u0301')).toBe(false);
    expect(sameBytes('é', Buffer.from([0xc3, 0xa9]))).toBe(true);
  });
});
