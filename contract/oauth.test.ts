import { describe, expect, it } from 'vitest';
import { asErrorDescription, authorizationQuerySchema, redirectWith, repeatedAuthorizationParams } from './oauth';

describe('repeatedAuthorizationParams', () => {
  it('names the authorization parameters sent more than once', () => {
    expect(repeatedAuthorizationParams('?scope=openid&state=a&scope=email&state=b&client_id=x')).toEqual(['scope', 'state']);
  });

  it('counts no parameter sent without a value, which is as if not sent (RFC 6749 §3.1)', () => {
    expect(repeatedAuthorizationParams('?scope=openid&scope=&state=&state=b&nonce=&nonce=')).toEqual([]);
  });

  it('ignores parameters it does not know, and an empty query', () => {
    expect(repeatedAuthorizationParams('ui_locales=en&ui_locales=de')).toEqual([]);
    expect(repeatedAuthorizationParams('')).toEqual([]);
  });
});

describe('authorizationQuerySchema', () => {
  it('keeps a repeated parameter as a list and a single one as text, with the same limits', () => {
    expect(authorizationQuerySchema.parse({ scope: ['openid', 'email'], state: 'x' })).toEqual({ scope: ['openid', 'email'], state: 'x' });
    expect(authorizationQuerySchema.safeParse({ client_id: 'c'.repeat(201) }).success).toBe(false);
  });
});

describe('redirectWith', () => {
  it('adds only the parameters given a value, after the registered query, and leaves a URI given none as it was', () => {
    expect(redirectWith('https://app.example/cb?tenant=a%20b&flag', { code: 'c1', state: null, iss: undefined })).toBe('https://app.example/cb?tenant=a%20b&flag&code=c1');
    expect(redirectWith('https://app.example/cb?tenant=a', { state: undefined })).toBe('https://app.example/cb?tenant=a');
    expect(redirectWith('https://app.example/cb', {})).toBe('https://app.example/cb');
  });

  it('keeps a state as the service sent it, and only the error_description to what RFC 6749 allows', () => {
    const sent = 'é "x" \\ 日';
    const url = new URL(redirectWith('https://app.example/cb', { error: 'access_denied', error_description: 'Café "Grafana" \\ 日本', state: sent }));
    expect(Object.fromEntries(url.searchParams)).toEqual({ error: 'access_denied', error_description: "Cafe 'Grafana' / ??", state: sent });
  });
});

describe('asErrorDescription', () => {
  it('writes a character it cannot hold as ?', () => {
    expect(asErrorDescription('日本\u0000\n')).toBe('????');
  });
});
