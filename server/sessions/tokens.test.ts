import { describe, expect, it } from 'vitest';
import { hashToken, newOpaqueToken } from './tokens';

describe('newOpaqueToken', () => {
  it('gives 256 random bits, base64url, never the same twice across pool refills', () => {
    const tokens = Array.from({ length: 1000 }, () => newOpaqueToken());
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
    // Wiped only after use: no token is the zeroed slice.
    expect(tokens).not.toContain(Buffer.alloc(32).toString('base64url'));
  });

  it('stores tokens as their SHA-256', () => {
    expect(hashToken('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });
});
