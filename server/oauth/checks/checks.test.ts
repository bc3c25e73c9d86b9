import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { hashClientSecret } from '../../api-services/client-secrets';
import { OAuthError } from '../oauth-error';
import { checkAllowedGroups } from './check-allowed-groups';
import { takesSignIn, twoStepRefusal } from './check-two-step';
import { checkClientUsable } from './check-client';
import { checkGrantType } from './check-grant-type';
import { checkPkceChallenge, checkPkceVerifier } from './check-pkce';
import { checkMaxAge, checkPrompt } from './check-prompt';
import { checkRedirectUri, checkRedirectUriRepeated } from './check-redirect-uri';
import { checkNoRequestObject } from './check-request-object';
import { checkResponseType } from './check-response-type';
import { checkScope, checkScopeWithin } from './check-scope';
import { identityAssured } from './check-client-identity';
import { authenticateClient, readClientCredentials } from './client-authentication';

const service = (overrides: Partial<ApiServiceRow> = {}): ApiServiceRow => ({
  id: 's1',
  name: 'Grafana',
  description: 'd',
  client_id: 'client-1',
  client_secret_hash: hashClientSecret('right-secret'),
  redirect_uris: JSON.stringify(['https://app.lan/cb', 'https://app.lan/cb2']),
  post_logout_redirect_uris: '[]',
  scopes: JSON.stringify(['openid', 'email']),
  grant_types: JSON.stringify(['authorization_code']),
  is_active: 1,
  icon_url: null,
  id_token_signed_response_alg: 'RS256',
  allowed_groups: '[]',
  launch_url: null,
  require_two_step: 0,
  public_client: 0,
  created_at: 0,
  updated_at: 0,
  creation_key: null,
  ...overrides,
});

/** Runs a check and returns the OAuth error it raised, as `error: description (status)`. */
function thrownOAuthError(check: () => unknown): OAuthError {
  try {
    check();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('the check passed');
}

function refusal(check: () => unknown): string {
  const error = thrownOAuthError(check);
  return `${error.error}: ${error.description} (${error.statusCode})`;
}

const challengeOf = (check: () => unknown) => thrownOAuthError(check).headers['WWW-Authenticate'];

describe('checkClientUsable', () => {
  it('needs a known, enabled client', () => {
    expect(refusal(() => checkClientUsable(undefined, undefined))).toBe('invalid_request: client_id is missing (400)');
    expect(refusal(() => checkClientUsable(undefined, 'x'))).toBe('invalid_client: Unknown client (400)');
    expect(refusal(() => checkClientUsable(service({ is_active: 0 }), 'client-1'))).toBe('invalid_client: This service is disabled (400)');
    expect(checkClientUsable(service(), 'client-1').id).toBe('s1');
  });
});

describe('checkRedirectUri', () => {
  it('matches byte for byte, and may be omitted only with one registered URI', () => {
    expect(checkRedirectUri(service(), 'https://app.lan/cb')).toBe('https://app.lan/cb');
    for (const uri of ['https://app.lan/cb/', 'https://APP.lan/cb', 'https://app.lan/cb?x=1', 'https://app.lan/c']) {
      expect(refusal(() => checkRedirectUri(service(), uri))).toBe('invalid_request: redirect_uri is not registered for this service (400)');
    }
    expect(refusal(() => checkRedirectUri(service(), undefined))).toBe('invalid_request: redirect_uri is missing (400)');
    expect(checkRedirectUri(service({ redirect_uris: '["https://only.lan/cb"]' }), undefined)).toBe('https://only.lan/cb');
  });

  it('leaves the port of a loopback address to a native app (RFC 8252 §7.3), and only that', () => {
    const cli = service({ redirect_uris: '["http://127.0.0.1/callback", "http://[::1]:8000/cb?x=1"]', public_client: 1 });
    for (const uri of ['http://127.0.0.1:53127/callback', 'http://127.0.0.1/callback', 'http://[::1]/cb?x=1', 'http://[::1]:40000/cb?x=1']) expect(checkRedirectUri(cli, uri), uri).toBe(uri);
    for (const uri of ['http://127.0.0.1:53127/callback/', 'http://127.0.0.1:53127/other', 'http://localhost:53127/callback', 'https://127.0.0.1:53127/callback', 'http://127.0.0.2:53127/callback', 'http://[::1]:40000/cb', 'http://127.0.0.1:53127@evil.example/callback']) {
      expect(refusal(() => checkRedirectUri(cli, uri)), uri).toBe('invalid_request: redirect_uri is not registered for this service (400)');
    }
    // A confidential service is no native app (RFC 9700 §4.1.3): matched whole.
    const local = service({ redirect_uris: cli.redirect_uris });
    expect(checkRedirectUri(local, 'http://127.0.0.1/callback')).toBe('http://127.0.0.1/callback');
    expect(refusal(() => checkRedirectUri(local, 'http://127.0.0.1:53127/callback'))).toBe('invalid_request: redirect_uri is not registered for this service (400)');
  });

  it('reads a loopback address whole: nothing may come before it, or after it but a port and a path', () => {
    const bare = service({ redirect_uris: '["http://127.0.0.1", "http://[::1]"]', public_client: 1 });
    for (const uri of ['http://127.0.0.1:8000', 'http://[::1]:8000', 'http://127.0.0.1']) expect(checkRedirectUri(bare, uri), uri).toBe(uri);
    const hostile = ['http://127.0.0.1.evil.example', 'http://127.0.0.1:8000.evil.example', 'http://127.0.0.1@evil.example', 'http://127.0.0.1:8000@evil.example', 'http://[::1]:8000@evil.example', 'http://127.0.0.1:123456', 'http://127.0.0.1:', 'evil:http://127.0.0.1:8000', 'xhttp://127.0.0.1:8000'];
    for (const uri of hostile) expect(refusal(() => checkRedirectUri(bare, uri)), uri).toBe('invalid_request: redirect_uri is not registered for this service (400)');
  });
});

describe('checkRedirectUriRepeated', () => {
  it('repeats the one the authorization request named; may be left out only when it named none', () => {
    const named = { redirect_uri: 'https://app.lan/cb', redirect_uri_sent: 1 };
    expect(() => checkRedirectUriRepeated(named, 'https://app.lan/cb')).not.toThrow();
    expect(refusal(() => checkRedirectUriRepeated(named, undefined))).toBe('invalid_grant: redirect_uri is missing: the authorization request named one (400)');
    expect(refusal(() => checkRedirectUriRepeated(named, 'https://app.lan/cb/'))).toBe('invalid_grant: redirect_uri does not match the authorization request (400)');
    const defaulted = { ...named, redirect_uri_sent: 0 };
    expect(() => checkRedirectUriRepeated(defaulted, undefined)).not.toThrow();
    expect(() => checkRedirectUriRepeated(defaulted, 'https://app.lan/cb')).not.toThrow();
    expect(refusal(() => checkRedirectUriRepeated(defaulted, 'https://app.lan/cb2'))).toBe('invalid_grant: redirect_uri does not match the authorization request (400)');
  });
});

describe('checkNoRequestObject', () => {
  it('refuses request and request_uri, even empty', () => {
    expect(refusal(() => checkNoRequestObject('', undefined))).toBe('request_not_supported: The request parameter is not supported (400)');
    expect(refusal(() => checkNoRequestObject(undefined, 'urn:x'))).toBe('request_uri_not_supported: The request_uri parameter is not supported (400)');
    expect(() => checkNoRequestObject(undefined, undefined)).not.toThrow();
  });
});

describe('checkResponseType', () => {
  it('accepts code only', () => {
    expect(refusal(() => checkResponseType(undefined, undefined))).toBe('invalid_request: response_type is missing (400)');
    expect(refusal(() => checkResponseType('token', undefined))).toBe('unsupported_response_type: Only response_type=code is supported (400)');
    expect(() => checkResponseType('code', undefined)).not.toThrow();
  });

  it('answers in the query only: form_post or a fragment is refused, not ignored', () => {
    expect(() => checkResponseType('code', 'query')).not.toThrow();
    for (const mode of ['form_post', 'fragment', 'query.jwt', 'QUERY']) {
      expect(refusal(() => checkResponseType('code', mode)), mode).toBe('invalid_request: Only response_mode=query is supported (400)');
    }
  });
});

describe('checkScope', () => {
  it('requires openid and refuses scopes the service may not have', () => {
    expect(refusal(() => checkScope(service(), 'email'))).toBe('invalid_scope: The openid scope is required (400)');
    expect(refusal(() => checkScope(service(), 'openid profile'))).toBe('invalid_scope: Scope not allowed for this service: profile (400)');
    expect(checkScope(service(), 'openid  email openid')).toEqual(['openid', 'email']);
  });

  it('lets a refresh narrow but not widen', () => {
    expect(checkScopeWithin(['openid', 'email'], undefined)).toEqual(['openid', 'email']);
    expect(checkScopeWithin(['openid', 'email'], 'openid')).toEqual(['openid']);
    expect(checkScopeWithin(['openid', 'email', 'profile'], 'email'), 'openid kept').toEqual(['openid', 'email']);
    expect(refusal(() => checkScopeWithin(['openid'], 'openid email'))).toBe('invalid_scope: Scope was not granted: email (400)');
    expect(refusal(() => checkScopeWithin(['openid'], 'openid email profile email'))).toBe('invalid_scope: Scope was not granted: email profile (400)');
    expect(checkScopeWithin(['openid', 'email'], ' email  openid email ')).toEqual(['email', 'openid']);
  });
});

describe('checkAllowedGroups', () => {
  it('lets everyone into a service without groups, and only members into one with', () => {
    const person = (groups: string[]) => ({ groups: JSON.stringify(groups) });
    expect(() => checkAllowedGroups(service(), person([]))).not.toThrow();
    const family = service({ allowed_groups: JSON.stringify(['family', 'friends']) });
    expect(() => checkAllowedGroups(family, person(['admins', 'friends']))).not.toThrow();
    expect(refusal(() => checkAllowedGroups(family, person(['admins', 'Family'])))).toBe(
      'access_denied: Grafana is open only to some groups, and your account is in none of them; an administrator can add you (403)',
    );
    expect(refusal(() => checkAllowedGroups(family, person([])))).toMatch(/^access_denied: /);
  });
});

describe('PKCE', () => {
  const verifier = 'a'.repeat(43);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  it('accepts S256 challenges only', () => {
    expect(checkPkceChallenge(undefined, undefined, false)).toEqual({ challenge: null, method: null });
    expect(checkPkceChallenge(challenge, 'S256', false)).toEqual({ challenge, method: 'S256' });
    expect(refusal(() => checkPkceChallenge(challenge, undefined, false))).toBe('invalid_request: code_challenge_method must be S256 (400)');
    expect(refusal(() => checkPkceChallenge(challenge, 'plain', false))).toBe('invalid_request: code_challenge_method must be S256 (400)');
    expect(refusal(() => checkPkceChallenge('short', 'S256', false))).toBe('invalid_request: code_challenge is not a valid S256 challenge (400)');
    expect(refusal(() => checkPkceChallenge(undefined, 'S256', false))).toBe('invalid_request: code_challenge_method without code_challenge (400)');
  });

  it('needs a challenge from a public client', () => {
    expect(refusal(() => checkPkceChallenge(undefined, undefined, true))).toBe('invalid_request: A public client must use PKCE: code_challenge is missing (400)');
    expect(checkPkceChallenge(challenge, 'S256', true)).toEqual({ challenge, method: 'S256' });
  });

  it('checks the verifier against the challenge', () => {
    expect(() => checkPkceVerifier(challenge, verifier)).not.toThrow();
    expect(refusal(() => checkPkceVerifier(challenge, 'b'.repeat(43)))).toBe('invalid_grant: code_verifier does not match the code_challenge (400)');
    expect(refusal(() => checkPkceVerifier(challenge, undefined))).toBe('invalid_grant: code_verifier is missing or malformed (400)');
    expect(refusal(() => checkPkceVerifier(null, verifier))).toBe('invalid_grant: code_verifier sent for a code issued without code_challenge (400)');
    expect(() => checkPkceVerifier(null, undefined)).not.toThrow();
  });

  // RFC 7636 §4.1-4.2: a verifier is 43 to 128 unreserved characters, an S256 challenge 43 of base64url.
  it('takes verifiers and challenges of the RFC\'s alphabet and lengths only, even when they would match', () => {
    const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');
    const unreserved = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
    for (const good of [unreserved.slice(0, 43), unreserved.repeat(2).slice(0, 128), unreserved]) {
      expect(() => checkPkceVerifier(s256(good), good), good).not.toThrow();
      expect(checkPkceChallenge(s256(good), 'S256', false).challenge).toBe(s256(good));
    }
    for (const bad of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}/`, `${'a'.repeat(42)}=`, `${'a'.repeat(42)} `, `${'a'.repeat(43)}\n`]) {
      expect(refusal(() => checkPkceVerifier(s256(bad), bad)), JSON.stringify(bad)).toBe('invalid_grant: code_verifier is missing or malformed (400)');
    }
    for (const bad of [challenge.slice(1), `${challenge}A`, `${challenge.slice(1)}+`, `${challenge.slice(1)}/`, `${challenge.slice(1)}=`, `${challenge.slice(1)}.`, `${challenge}\n`]) {
      expect(refusal(() => checkPkceChallenge(bad, 'S256', false)), JSON.stringify(bad)).toBe('invalid_request: code_challenge is not a valid S256 challenge (400)');
    }
  });
});

describe('checkGrantType', () => {
  it('needs a supported grant the service may use', () => {
    expect(refusal(() => checkGrantType(service(), undefined))).toBe('invalid_request: grant_type is missing (400)');
    expect(refusal(() => checkGrantType(service(), 'password'))).toBe('unsupported_grant_type: grant_type password is not supported (400)');
    expect(refusal(() => checkGrantType(service(), 'refresh_token'))).toBe('unauthorized_client: This service may not use the refresh_token grant (400)');
    expect(checkGrantType(service(), 'authorization_code')).toBe('authorization_code');
  });
});

describe('prompt and max_age', () => {
  it('reads them, refusing nonsense', () => {
    expect(checkPrompt('login consent')).toEqual(['login', 'consent']);
    expect(refusal(() => checkPrompt('none login'))).toBe('invalid_request: prompt=none cannot be combined with other values (400)');
    expect(refusal(() => checkPrompt('maybe'))).toBe('invalid_request: Unsupported prompt: maybe (400)');
    expect(checkMaxAge('300')).toBe(300);
    expect(checkMaxAge('0')).toBe(0);
    for (const nonsense of ['-1', '', '5s', 's5', '1.5', ' 5', '5 ', '1e3', '0x10', '1234567890']) {
      expect(refusal(() => checkMaxAge(nonsense)), JSON.stringify(nonsense)).toBe('invalid_request: max_age must be a whole number of seconds (400)');
    }
  });
});

describe('readClientCredentials', () => {
  const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;
  const read = (header: string | undefined, body: { client_id?: string; client_secret?: string } = {}) => readClientCredentials(header, body);
  const refusedWith = (check: () => unknown) => ({ refusal: refusal(check), challenge: challengeOf(check) });
  const malformed = { refusal: 'invalid_client: Malformed client credentials (401)', challenge: 'Basic realm="home-guard", charset="UTF-8"' };

  it('reads HTTP Basic, its parts form-encoded (RFC 6749 §2.3.1), whatever the scheme\'s case', () => {
    expect(read(basic('client-1:s3cret'))).toEqual({ clientId: 'client-1', secret: 's3cret', method: 'client_secret_basic' });
    expect(read(basic('my+client%3A1:a+b%2Bc%3Ad:e'))).toEqual({ clientId: 'my client:1', secret: 'a b+c:d:e', method: 'client_secret_basic' });
    for (const scheme of ['basic', 'BASIC', 'bAsIc']) expect(read(`${scheme} ${Buffer.from('c:s').toString('base64')}`).clientId, scheme).toBe('c');
    expect(read(`Basic   ${Buffer.from('c:s').toString('base64')}  `)).toEqual({ clientId: 'c', secret: 's', method: 'client_secret_basic' });
    expect(read(basic('c:'))).toEqual({ clientId: 'c', secret: '', method: 'client_secret_basic' });
    // The same client_id in the body as well is no second method.
    expect(read(basic('c:s'), { client_id: 'c' }).method).toBe('client_secret_basic');
  });

  it('refuses Basic credentials it cannot read, two methods at once, or two client_ids', () => {
    for (const userPass of ['no-colon', ':secret-without-id', '%zz:secret', 'c:%E0%A4%A', 'c%00:s', 'c:s%00', 'c\0:s', 'c:s\0']) {
      expect(refusedWith(() => read(basic(userPass))), JSON.stringify(userPass)).toEqual(malformed);
    }
    expect(refusedWith(() => read(basic('c:s'), { client_secret: 's' })).refusal).toBe('invalid_request: Use one client authentication method, not two (400)');
    expect(refusedWith(() => read(basic('c:s'), { client_id: 'other', client_secret: undefined })).refusal).toBe('invalid_request: client_id does not match the credentials (400)');
  });

  it('takes the form body when no Basic header is sent, and a client_id alone as a public client', () => {
    for (const header of [undefined, '', 'Bearer abc', `xBasic ${Buffer.from('c:s').toString('base64')}`, `Basic${Buffer.from('c:s').toString('base64')}`]) {
      expect(read(header, { client_id: 'form', client_secret: 'form-secret' }), JSON.stringify(header)).toEqual({ clientId: 'form', secret: 'form-secret', method: 'client_secret_post' });
      expect(read(header, { client_id: 'form' }), JSON.stringify(header)).toEqual({ clientId: 'form', secret: null, method: 'none' });
      expect(refusedWith(() => read(header, { client_secret: 'form-secret' })), JSON.stringify(header)).toEqual({ ...malformed, refusal: 'invalid_client: Client authentication is required (401)' });
    }
    expect(read(undefined, { client_id: 'form', client_secret: '' })).toEqual({ clientId: 'form', secret: '', method: 'client_secret_post' });
    expect(refusedWith(() => read(undefined, { client_id: '' })).refusal).toBe('invalid_client: Client authentication is required (401)');
  });
});

describe('authenticateClient', () => {
  const basic = { clientId: 'client-1', secret: 'right-secret', method: 'client_secret_basic' as const };
  const none = { clientId: 'client-1', secret: null, method: 'none' as const };

  it('compares the secret with the stored hash', () => {
    expect(authenticateClient(service(), basic).id).toBe('s1');
    expect(refusal(() => authenticateClient(service(), { ...basic, secret: 'wrong' }))).toBe('invalid_client: Client authentication failed (401)');
    expect(refusal(() => authenticateClient(service(), { ...basic, secret: '' }))).toBe('invalid_client: Client authentication failed (401)');
    expect(refusal(() => authenticateClient(undefined, basic))).toBe('invalid_client: Client authentication failed (401)');
    expect(refusal(() => authenticateClient(service({ is_active: 0 }), basic))).toBe('invalid_client: This service is disabled (401)');
  });

  it('challenges a client that used HTTP Basic to try again (RFC 6749 §5.2), and no other', () => {
    expect(challengeOf(() => authenticateClient(service(), { ...basic, secret: 'wrong' }))).toMatch(/^Basic realm=/);
    expect(challengeOf(() => authenticateClient(service(), { ...basic, method: 'client_secret_post', secret: 'wrong' }))).toBeUndefined();
  });

  it('takes a client_id alone from a public client only', () => {
    const publicClient = service({ public_client: 1 });
    expect(authenticateClient(publicClient, none).id).toBe('s1');
    expect(authenticateClient(publicClient, { ...basic, secret: '' }).id).toBe('s1');
    expect(refusal(() => authenticateClient(publicClient, basic))).toBe('invalid_client: This is a public client: it has no secret to send (401)');
    expect(refusal(() => authenticateClient(service(), none))).toBe('invalid_client: Client authentication is required (401)');
    expect(refusal(() => authenticateClient(undefined, none))).toBe('invalid_client: Client authentication is required (401)');
    expect(refusal(() => authenticateClient(service({ public_client: 1, is_active: 0 }), none))).toBe('invalid_client: This service is disabled (401)');
  });
});

describe('identityAssured', () => {
  it('trusts earlier approvals for confidential clients, and for public ones only back to https', () => {
    expect(identityAssured(service(), 'app.immich:///oauth-callback')).toBe(true);
    expect(identityAssured(service({ public_client: 1 }), 'https://app.lan/cb')).toBe(true);
    expect(identityAssured(service({ public_client: 1 }), 'http://127.0.0.1:8000/cb')).toBe(false);
    expect(identityAssured(service({ public_client: 1 }), 'app.immich:///oauth-callback')).toBe(false);
  });
});

describe('takesSignIn', () => {
  it('takes any sign-in for most services, and only two-step ones (amr mfa) for one that asks', () => {
    expect(takesSignIn(service(), 'pwd')).toBe(true);
    expect(takesSignIn(service({ require_two_step: 1 }), 'pwd otp mfa')).toBe(true);
    expect(takesSignIn(service({ require_two_step: 1 }), 'pwd')).toBe(false);
    expect(takesSignIn(service({ require_two_step: 1 }), 'pwd otp')).toBe(false);
  });

  it('tells the person what to do, with two-step sign-in on or off', () => {
    expect(refusal(() => { throw twoStepRefusal(service(), false); })).toBe('access_denied: Grafana asks for two-step sign-in: turn it on under Personal Info, then sign out and sign in again (403)');
    expect(refusal(() => { throw twoStepRefusal(service(), true); })).toBe("access_denied: Grafana asks for two-step sign-in: sign out, then sign in again with your authenticator app's code (403)");
  });
});
