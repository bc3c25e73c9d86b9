import { describe, expect, it } from 'vitest';
import { VerifiedClaimsCache } from './verified-claims-cache';

describe('VerifiedClaimsCache', () => {
  it('answers until the expiry and forgets the entry after it', () => {
    const cache = new VerifiedClaimsCache<string>(10);
    cache.set('h', 'claims', 1_000);
    expect(cache.get('h', 999)).toBe('claims');
    expect(cache.get('h', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds no more than its bound, dropping the oldest entry first', () => {
    const cache = new VerifiedClaimsCache<number>(3);
    for (let i = 0; i < 5; i++) cache.set(`h${i}`, i, 10_000);
    expect(cache.size).toBe(3);
    expect(cache.get('h0', 0)).toBeUndefined();
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.get('h4', 0)).toBe(4);
  });
});
