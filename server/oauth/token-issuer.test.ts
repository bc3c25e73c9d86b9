import { describe, expect, it } from 'vitest';
import { claimsFor, type ClaimsUser } from './token-issuer';

const user: ClaimsUser = { id: 'u1', email: 'ada@home.lan', email_verified: 1, full_name: 'Ada', username: 'ada', profile_picture: null, groups: '["family"]' };

describe('claimsFor', () => {
  it('says whether the email address is proved, as the account says', () => {
    expect(claimsFor(user, ['openid', 'email'], 'https://id.home.lan')).toEqual({ sub: 'u1', email: 'ada@home.lan', email_verified: true });
    expect(claimsFor({ ...user, email_verified: 0 }, ['openid', 'email'], 'https://id.home.lan')).toEqual({ sub: 'u1', email: 'ada@home.lan', email_verified: false });
  });
});
