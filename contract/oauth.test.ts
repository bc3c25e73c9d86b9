import { describe, expect, it } from 'vitest';
import { authorizationQuerySchema, repeatedAuthorizationParams } from './oauth';

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
