import { describe, expect, it } from 'vitest';
import { needsRefresh } from './jwt-expiry';

const token = (claims: Record<string, unknown>) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;
const now = 1_800_000_000;

describe('needsRefresh', () => {
  it('refreshes missing, unreadable and expired tokens', () => {
    expect(needsRefresh(undefined)).toBe(true);
    expect(needsRefresh('not-a-jwt')).toBe(true);
    expect(needsRefresh(token({ sub: 'x' }))).toBe(true);
    expect(needsRefresh(token({ iat: now - 900, exp: now - 1 }), now * 1000)).toBe(true);
  });

  it('refreshes 10 seconds early, or a fifth of the lifetime for short tokens', () => {
    expect(needsRefresh(token({ iat: now, exp: now + 900 }), (now + 880) * 1000)).toBe(false);
    expect(needsRefresh(token({ iat: now, exp: now + 900 }), (now + 891) * 1000)).toBe(true);
    expect(needsRefresh(token({ iat: now, exp: now + 2 }), (now + 1) * 1000)).toBe(false);
    expect(needsRefresh(token({ iat: now, exp: now + 2 }), (now + 1.7) * 1000)).toBe(true);
  });
});
