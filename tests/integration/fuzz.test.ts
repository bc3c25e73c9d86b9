import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

// Property-based fuzzing of every JSON endpoint: bodies built from each schema's own field names
// with values of every shape, plus arbitrary JSON. Never a 5xx; a 4xx never changes state
// (failure counters, which exist to count failures, excepted).
let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
let user: Awaited<ReturnType<typeof registerAndLogin>>;
let serviceId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await registerAndLogin(t.app);
  user = await registerAndLogin(t.app);
  serviceId = (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: { name: 'S', description: 'd', redirect_uris: ['https://s.lan/cb'], scopes: ['openid'] } })).body.id;
});
afterAll(async () => t.close());

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom("' OR 1=1 --", '"; drop table users; --', '../../../etc/passwd', '%00', '\u0000', '<script>alert(1)</script>', 'https://evil.example', '//evil.example', 'a'.repeat(5000), '', ' ', 'openid', 'code', 'S256', '-1', '1e400', 'NaN'),
);
const value = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(hostileString, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 5 }), hostileString, { maxKeys: 3 }));
const text = fc.oneof(fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim() !== ''), fc.constantFrom("O'Brien; --", '<b>Ada</b>', 'Zoë 🛡️', 'a'.repeat(200), 'Nul\u0000Byte'));
const password = fc.constantFrom('Valid-pass1', 'Анна-Pass99', 'P4ssword with spaces');
const sixDigits = fc.stringMatching(/^\d{6}$/);
const recoveryCode = fc.stringMatching(/^[0-9a-fA-F]{5}-?[0-9a-fA-F]{5}$/);
const scopes = fc.subarray(['openid', 'email', 'profile', 'offline_access', 'groups'], { minLength: 1 });

/** A schema-valid body, one of its fields replaced or dropped, or any JSON at all. */
function bodyFor(target: Target) {
  const random = fc.dictionary(fc.constantFrom(...(target.fields.length ? target.fields : ['x'])), value);
  if (!target.valid) return fc.oneof({ weight: 4, arbitrary: random }, { weight: 1, arbitrary: fc.jsonValue() });
  const mutated = fc.tuple(target.valid, fc.constantFrom(...target.fields), fc.option(value)).map(([body, field, replacement]) => {
    const copy: Record<string, unknown> = { ...body };
    if (replacement === null) delete copy[field];
    else copy[field] = replacement;
    return copy;
  });
  return fc.oneof({ weight: 3, arbitrary: target.valid }, { weight: 3, arbitrary: mutated }, { weight: 2, arbitrary: random }, { weight: 1, arbitrary: fc.jsonValue() });
}

type Target = { method: 'POST' | 'PUT' | 'DELETE' | 'GET'; url: () => string; fields: string[]; token?: () => string; valid?: fc.Arbitrary<Record<string, unknown>> };
const targets: Target[] = [
  { method: 'POST', url: () => '/api/v1/register', fields: ['full_name', 'email', 'phone_number', 'password', 'is_admin', 'verified'], valid: fc.record({ full_name: text, email: fc.emailAddress(), password, phone_number: fc.option(fc.constantFrom('+1 555 0100', '0123 456'), { nil: undefined }) }, { requiredKeys: ['full_name', 'email', 'password'] }) },
  { method: 'POST', url: () => '/api/v1/auth/login', fields: ['email', 'password', 'code'], valid: fc.record({ email: fc.emailAddress(), password: fc.string({ minLength: 1, maxLength: 40 }), code: fc.option(fc.oneof(sixDigits, recoveryCode), { nil: undefined }) }) },
  { method: 'POST', url: () => '/api/v1/auth/refresh', fields: [], token: () => user.refresh },
  { method: 'POST', url: () => '/api/v1/auth/password', fields: ['current_password', 'password'], token: () => user.access },
  { method: 'POST', url: () => '/api/v1/auth/password-reset', fields: ['email'] },
  { method: 'POST', url: () => '/api/v1/auth/password-reset/confirm', fields: ['token', 'password'], valid: fc.record({ token: fc.string({ maxLength: 60 }), password }) },
  { method: 'PUT', url: () => '/api/v1/auth/two-step', fields: ['secret', 'code', 'current_password'], token: () => user.access, valid: fc.record({ secret: fc.stringMatching(/^[A-Z2-7]{32}$/), code: sixDigits, current_password: fc.constant(null).map(() => user.password) }) },
  { method: 'DELETE', url: () => '/api/v1/auth/two-step', fields: ['current_password'], token: () => user.access },
  { method: 'POST', url: () => '/api/v1/auth/two-step/recovery-codes', fields: ['current_password'], token: () => user.access },
  { method: 'DELETE', url: () => '/api/v1/auth/sessions/not-a-session', fields: [], token: () => user.access },
  { method: 'DELETE', url: () => '/api/v1/auth/sessions', fields: [], token: () => user.access },
  { method: 'DELETE', url: () => '/api/v1/auth/services/not-a-service', fields: [], token: () => user.access },
  { method: 'POST', url: () => '/api/v1/auth/email/otp', fields: ['otp'], token: () => user.access },
  { method: 'POST', url: () => '/api/v1/auth/verify', fields: [], token: () => user.access },
  { method: 'POST', url: () => '/api/v1/admin/api-services', fields: ['name', 'description', 'redirect_uris', 'scopes', 'grant_types', 'is_active', 'icon_url', 'allowed_groups', 'launch_url'], token: () => admin.access, valid: fc.record({ name: text, description: text, redirect_uris: fc.array(fc.webUrl(), { minLength: 1, maxLength: 3 }), scopes, grant_types: fc.subarray(['authorization_code', 'refresh_token']) }) },
  { method: 'PUT', url: () => `/api/v1/admin/api-services/${serviceId}`, fields: ['name', 'description', 'redirect_uris', 'scopes', 'grant_types', 'icon_url', 'allowed_groups', 'launch_url'], token: () => admin.access, valid: fc.record({ name: text, description: text, redirect_uris: fc.array(fc.webUrl(), { minLength: 1, maxLength: 3 }), scopes }) },
  { method: 'POST', url: () => '/api/v1/admin/users', fields: ['full_name', 'email', 'password', 'is_admin'], token: () => admin.access, valid: fc.record({ full_name: text, email: fc.emailAddress(), password, is_admin: fc.boolean() }) },
  { method: 'PUT', url: () => `/api/v1/admin/users/${user.id}`, fields: ['full_name', 'email', 'phone_number', 'is_admin', 'groups'], token: () => admin.access, valid: fc.record({ full_name: text, email: fc.constant(null).map(() => user.email), phone_number: fc.constantFrom(null, '+44 20 7946 0000'), is_admin: fc.constant(false), groups: fc.array(text, { maxLength: 3 }) }) },
  // The administrator's own password: refused (Personal Info asks for the current one), the body checked first.
  { method: 'PUT', url: () => `/api/v1/admin/users/${admin.id}/password`, fields: ['password'], token: () => admin.access, valid: fc.record({ password }) },
  // The administrator's own status: disabling oneself is refused, enabling the enabled changes nothing.
  { method: 'PUT', url: () => `/api/v1/admin/users/${admin.id}/status`, fields: ['disabled'], token: () => admin.access, valid: fc.record({ disabled: fc.boolean() }) },
  { method: 'POST', url: () => '/api/v1/oauth/code', fields: ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'prompt', 'max_age', 'if_approved'], token: () => user.access },
  { method: 'POST', url: () => '/api/v1/oauth/end-session', fields: ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id'] },
  { method: 'GET', url: () => '/api/v1/oauth/authorize', fields: ['client_id', 'redirect_uri', 'response_type', 'scope', 'prompt', 'max_age', 'code_challenge'] },
  { method: 'GET', url: () => '/api/v1/admin/user-sessions', fields: ['page', 'size', 'search'], token: () => admin.access },
  { method: 'GET', url: () => '/api/v1/admin/audit-log', fields: ['page', 'size', 'search', 'user_id', 'group'], token: () => admin.access },
];

// Everything but the failure counters and the audit log's refused sign-ins, which exist to change on failures.
async function snapshot(): Promise<string> {
  const tables = ['users', 'user_sessions', 'refresh_tokens', 'api_services', 'oauth_codes', 'service_sessions', 'service_tokens', 'consents', 'avatars', 'signing_keys', 'password_resets', 'authenticator_apps', 'authenticator_app_setups', 'recovery_codes'] as const;
  const rows = await Promise.all(tables.map((table) => t.db.selectFrom(table).selectAll().execute()));
  const events = await t.db.selectFrom('audit_events').selectAll().where('kind', '!=', 'sign-in-refused').orderBy('id').execute();
  return JSON.stringify([rows, events]);
}

let cases = 0;
it('never answers 5xx, and a refusal changes nothing', async () => {
  // The state after one case is the state before the next: one snapshot a case, not two.
  let state = await snapshot();
  for (const target of targets) {
    await fc.assert(
      fc.asyncProperty(bodyFor(target), async (body) => {
        cases += 1;
        let url = target.url();
        let payload: unknown = body;
        if (target.method === 'GET') {
          const query = new URLSearchParams(Object.entries(typeof body === 'object' && body && !Array.isArray(body) ? body : {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
          url = `${url}?${query}`;
          payload = undefined;
        }
        const answer = await call(t.app, target.method, url, { ...(payload !== undefined ? { body: payload } : {}), ...(target.token ? { token: target.token() } : {}) });
        expect(answer.status, `${target.method} ${url} ${JSON.stringify(body).slice(0, 300)}`).toBeLessThan(500);
        const before = state;
        state = await snapshot();
        if (answer.status >= 400) expect(state, `${target.method} ${url} changed state on ${answer.status}`).toBe(before);
        // A successful refresh rotates the token: keep the fuzzing on the live one.
        if (target.url() === '/api/v1/auth/refresh' && answer.status === 200) user = { ...user, refresh: answer.body.refresh, access: answer.body.access };
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
  }
  expect(cases).toBeGreaterThanOrEqual(targets.length * 100);
  console.log(`fuzz: ${cases} cases, 0 answers of 5xx`);
}, 300_000);
