import { describe, expect, it } from 'vitest';
import { isBrokeredRequest } from './broker';

const origin = 'https://id.example';
const brokered = (path: string, init?: RequestInit, base = origin) => isBrokeredRequest(new Request(`${base}${path}`, init), origin);

describe('isBrokeredRequest', () => {
  it('gives the bearer to the app\'s own API calls, the code request among them', () => {
    expect(brokered('/api/v1/auth/profile')).toBe(true);
    expect(brokered('/api/v1/oauth/code', { method: 'POST', body: '{}' })).toBe(true);
  });

  it('never to the public OAuth endpoints, which any site can send a person to', () => {
    for (const name of ['authorize', 'end-session', 'token', 'introspect', 'revoke', 'userinfo']) expect(brokered(`/api/v1/oauth/${name}`), name).toBe(false);
  });

  it('never to sign-in calls, other origins, pages, no-cors requests or requests with their own credentials', () => {
    expect(brokered('/api/v1/auth/refresh', { method: 'POST' })).toBe(false);
    expect(brokered('/api/v1/auth/profile', undefined, 'https://evil.example')).toBe(false);
    expect(brokered('/personal-info')).toBe(false);
    expect(brokered('/api/v1/auth/profile', { mode: 'no-cors' })).toBe(false);
    expect(brokered('/api/v1/auth/profile', { headers: { authorization: 'Bearer service-token' } })).toBe(false);
  });
});
