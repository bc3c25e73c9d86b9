import { describe, expect, it } from 'vitest';
import { hashToken, newOpaqueToken, newSplitToken, presentedKey, verifierMatches } from './tokens';

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

describe('split tokens (selector.secret)', () => {
  it('are found by a selector that sorts by time of issue, and store only the secret hashed', () => {
    const at = Date.UTC(2026, 10, 24);
    const tokens = [at, at + 1, at + 60_000, at + 86_400_000 * 400].map((time) => newSplitToken(time));
    expect(tokens.map((t) => t.key)).toEqual(tokens.map((t) => t.key).sort());
    for (const { token, key, verifierHash } of tokens) {
      expect(token).toMatch(/^[0-9a-z]{9}[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
      expect(presentedKey(token)).toEqual({ key, verifierHash });
      expect(verifierHash).toBe(hashToken(token.split('.')[1]!));
      expect(token).not.toContain(verifierHash);
    }
    expect(new Set(Array.from({ length: 1000 }, () => newSplitToken(at).key)).size).toBe(1000);
  });

  it('a token from before selectors is found by its whole hash, with no verifier', () => {
    expect(presentedKey('abc')).toEqual({ key: hashToken('abc'), verifierHash: null });
  });

  it('a verifier matches only its equal; an older token only a row without one', () => {
    const { verifierHash } = newSplitToken();
    expect(verifierMatches(verifierHash, verifierHash)).toBe(true);
    expect(verifierMatches(verifierHash, newSplitToken().verifierHash)).toBe(false);
    expect(verifierMatches(verifierHash, verifierHash.slice(1))).toBe(false);
    expect(verifierMatches(verifierHash, null)).toBe(false);
    expect(verifierMatches(null, verifierHash)).toBe(false);
    expect(verifierMatches(null, null)).toBe(true);
  });
});
