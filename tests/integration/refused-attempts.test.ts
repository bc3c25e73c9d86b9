import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CLIENT_AUTH_THROTTLE } from '../../server/oauth/client-throttle';
import { REGISTER_THROTTLE } from '../../server/accounts/accounts-service';
import { LOGIN_THROTTLE, SECOND_STEP_THROTTLE } from '../../server/accounts/sign-in';
import { REFUSED_ATTEMPT_MESSAGE } from '../../server/operations/refused-attempts';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { call, capturedLog, registerAndLogin, startTestApp, turnOnTwoStep, validRegistration, type TestApp } from '../support/test-app';

// The filter README's "Banning addresses that guess" tells people to install.
const FILTER = path.resolve('server/operations/fail2ban/home-guard.conf');

let t: TestApp;
let log: ReturnType<typeof capturedLog>;
const start = async (trustProxy: string, env: Record<string, string> = {}) => {
  log = capturedLog();
  t = await startTestApp({ TRUST_PROXY: trustProxy, ...env }, { logger: log.logger });
};
// Behind a trusted proxy, so each attempt can come from an address of its own.
beforeEach(async () => start('true'));
afterEach(async () => t.close());

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const signIn = (ip: string, body: Record<string, string>) => call(t.app, 'POST', '/api/v1/auth/login', { body, headers: from(ip) });
const refusals = () => log.entries().filter((entry) => entry.msg === REFUSED_ATTEMPT_MESSAGE);

/** Runs `work` in a fresh directory, removed afterwards. */
async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'home-guard-fail2ban-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What fail2ban itself finds in the log with the filter we ship: the address of each matched line. */
const fail2banAddresses = () =>
  inTempDir(async (dir) => {
    const file = path.join(dir, 'home-guard.log');
    await writeFile(file, log.text());
    const { stdout } = await promisify(execFile)('fail2ban-regex', ['-o', 'ip', file, FILTER]);
    return stdout.split('\n').filter(Boolean);
  });

it('logs every refused sign-in with its address and reason, which fail2ban reads with the filter we ship', async () => {
  const admin = await registerAndLogin(t.app);
  const ada = await registerAndLogin(t.app);
  expect(refusals()).toEqual([]); // registering and signing in are not refusals

  await signIn('203.0.113.1', { email: ada.email, password: 'Wrong-pass1' });
  await signIn('203.0.113.2', { email: 'nobody@example.com', password: 'Typed-here1' });

  await turnOnTwoStep(t, ada);
  expect((await signIn('203.0.113.3', { email: ada.email, password: ada.password })).body.field).toBe('code'); // asked, not refused
  expect((await signIn('203.0.113.3', { email: ada.email, password: ada.password, code: '000000' })).status).toBe(401);

  const bob = await registerAndLogin(t.app);
  expect((await call(t.app, 'PUT', `/api/v1/admin/users/${bob.id}/status`, { token: admin.access, body: { disabled: true } })).status).toBe(200);
  expect((await signIn('2001:db8::4', { email: bob.email, password: bob.password })).status).toBe(403);

  // Guessing one account's password until it is throttled: the throttled tries are logged too.
  for (let i = 0; i < LOGIN_THROTTLE.account.limit; i++) await signIn('198.51.100.5', { email: 'target@example.com', password: `Guess-${i}-pass` });
  expect((await signIn('198.51.100.5', { email: 'target@example.com', password: 'Guess-last1' })).status).toBe(429);

  const guesses = Array.from({ length: LOGIN_THROTTLE.account.limit }, () => ({ attempt: 'sign-in', reason: 'unknown-account', ip: '198.51.100.5' }));
  expect(refusals().map(({ attempt, reason, ip, userId }) => ({ attempt, reason, ip, ...(userId ? { userId } : {}) }))).toEqual([
    { attempt: 'sign-in', reason: 'wrong-password', ip: '203.0.113.1', userId: ada.id },
    { attempt: 'sign-in', reason: 'unknown-account', ip: '203.0.113.2' },
    { attempt: 'sign-in', reason: 'wrong-code', ip: '203.0.113.3', userId: ada.id },
    { attempt: 'sign-in', reason: 'disabled', ip: '2001:db8::4', userId: bob.id },
    ...guesses,
    { attempt: 'sign-in', reason: 'throttled', ip: '198.51.100.5' },
  ]);
  expect(refusals().every((entry) => entry.level === 40)).toBe(true); // warn: kept at LOG_LEVEL=warn too
  // Nothing a person typed is written: not the password, the code or the email tried.
  for (const typed of ['Wrong-pass1', 'Typed-here1', 'nobody@example.com', 'target@example.com', 'Guess-0-pass', ada.password, bob.password, ada.email]) expect(log.text()).not.toContain(typed);

  expect(await fail2banAddresses()).toEqual(refusals().map((entry) => entry.ip));
});

it("logs a sign-in refused for the day's refused second steps as throttled, and counts them for that account alone", async () => {
  const codeFor = (secret: string, steps = 0) => totpCode(secret, totpStep(t.app.services.clock()) + steps);
  const withTwoStep = async () => {
    const user = await registerAndLogin(t.app);
    return { ...user, secret: (await turnOnTwoStep(t, user)).secret };
  };
  const [ada, bob] = [await withTwoStep(), await withTwoStep()];
  for (let i = 1; i <= SECOND_STEP_THROTTLE.limit; i++) {
    expect((await signIn('203.0.113.7', { email: ada.email, password: ada.password, code: codeFor(ada.secret, 1000 + i) })).status).toBe(401);
    if (i % 4 === 0) t.advance(61_000); // within LOGIN_THROTTLE's five a minute
  }
  t.advance(31_000); // past the time step whose codes turned two-step on
  log.forget();
  expect((await signIn('203.0.113.7', { email: ada.email, password: ada.password, code: codeFor(ada.secret) })).status).toBe(429);
  expect((await signIn('203.0.113.8', { email: bob.email, password: bob.password, code: codeFor(bob.secret) })).status).toBe(200);
  expect(refusals().map(({ attempt, reason, ip, userId }) => ({ attempt, reason, ip, userId }))).toEqual([{ attempt: 'sign-in', reason: 'throttled', ip: '203.0.113.7', userId: ada.id }]);
});

it('refuses a wrong password all the same when the database will not take its audit event, and logs why, with the refusal still for fail2ban', async () => {
  const ada = await registerAndLogin(t.app);
  // A real write failure: the database itself refuses the row.
  const refusing =
    t.database.kind === 'sqlite'
      ? { on: [sql`CREATE TRIGGER refuse_refusals BEFORE INSERT ON audit_events WHEN NEW.kind = 'sign-in-refused' BEGIN SELECT RAISE(ABORT, 'disk full'); END`], off: sql`DROP TRIGGER refuse_refusals` }
      : {
          on: [
            sql`CREATE FUNCTION refuse_refusals() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.kind = 'sign-in-refused' THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`,
            sql`CREATE TRIGGER refuse_refusals BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_refusals()`,
          ],
          off: sql`DROP FUNCTION refuse_refusals() CASCADE`,
        };
  try {
    for (const statement of refusing.on) await statement.execute(t.db);
    expect((await signIn('203.0.113.9', { email: ada.email, password: 'Wrong-pass1' })).status).toBe(401);
    await t.app.services.background.drain();
  } finally {
    await refusing.off.execute(t.db); // the database may be another test's next
  }
  expect(log.entries().filter((entry) => entry.msg === 'a refused sign-in could not be recorded').map((entry) => entry.err?.message)).toEqual([expect.stringContaining('disk full')]);
  expect(await fail2banAddresses()).toEqual(['203.0.113.9']);
});

it("neither counts nor logs as a guess a disabled service's right secret, which it sends again and again", async () => {
  const admin = await registerAndLogin(t.app);
  const body = { name: 'Grafana', description: 'Dashboards', redirect_uris: ['https://grafana.home.lan/cb'], scopes: ['openid'] };
  const { id, credentials } = (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body })).body;
  expect((await call(t.app, 'PATCH', `/api/v1/admin/api-services/toggle/${id}`, { token: admin.access, body: { is_active: false } })).body.is_active).toBe(false);
  const rawBody = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: credentials.client_id, client_secret: credentials.client_secret }).toString();
  for (let i = 0; i <= CLIENT_AUTH_THROTTLE.limit; i++) {
    const answer = await call(t.app, 'POST', '/api/v1/oauth/token', { headers: { ...from('192.0.2.7'), 'content-type': 'application/x-www-form-urlencoded' }, rawBody });
    expect([answer.status, answer.body]).toEqual([401, { error: 'invalid_client', error_description: 'This service is disabled' }]);
  }
  expect(refusals()).toEqual([]);
  expect(await fail2banAddresses()).toEqual([]);
});

it('neither counts nor logs as a guess a request whose client authentication is malformed, not wrong (its secret sent both ways)', async () => {
  // A service so misconfigured is told why, again and again; fail2ban must not ban the address
  // its host's other services share for it.
  const basic = `Basic ${Buffer.from('grafana:the-secret').toString('base64')}`;
  const rawBody = 'grant_type=client_credentials&client_id=grafana&client_secret=the-secret';
  for (let i = 0; i <= CLIENT_AUTH_THROTTLE.limit; i++) {
    const answer = await call(t.app, 'POST', '/api/v1/oauth/token', { headers: { ...from('192.0.2.8'), authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, rawBody });
    expect([answer.status, answer.body]).toEqual([400, { error: 'invalid_request', error_description: 'Use one client authentication method, not two' }]);
  }
  expect(await t.db.selectFrom('throttle').select('key').where('key', 'like', 'client-auth:%').execute()).toEqual([]);
  expect(refusals()).toEqual([]);
  expect(await fail2banAddresses()).toEqual([]);
});

it('logs refused client authentication at the token endpoint, throttled or not, and fail2ban reads it', async () => {
  const token = (ip: string) => call(t.app, 'POST', '/api/v1/oauth/token', { headers: { ...from(ip), 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'grant_type=client_credentials&client_id=grafana&client_secret=guessed-secret' });
  for (let i = 0; i < CLIENT_AUTH_THROTTLE.limit; i++) expect((await token('192.0.2.9')).status).toBe(401);
  expect((await token('192.0.2.9')).status).toBe(429);

  const entries = refusals();
  expect(entries.slice(0, -1).map(({ attempt, reason, ip, detail }) => ({ attempt, reason, ip, detail }))).toEqual(
    Array.from({ length: CLIENT_AUTH_THROTTLE.limit }, () => ({ attempt: 'client-authentication', reason: 'wrong-credentials', ip: '192.0.2.9', detail: 'Client authentication failed' })),
  );
  expect(entries.at(-1)).toMatchObject({ attempt: 'client-authentication', reason: 'throttled', ip: '192.0.2.9' });
  expect(log.text()).not.toContain('guessed-secret');
  expect(await fail2banAddresses()).toEqual(entries.map(() => '192.0.2.9'));
});

it('logs a wrong current password, asked for before a password change, and the throttle that follows', async () => {
  const ada = await registerAndLogin(t.app);
  const change = () => call(t.app, 'POST', '/api/v1/auth/password', { token: ada.access, headers: from('203.0.113.8'), body: { current_password: 'Not-it-1', password: 'Brand-new1' } });
  for (let i = 0; i < LOGIN_THROTTLE.account.limit; i++) expect((await change()).status).toBe(400);
  expect((await change()).status).toBe(429);

  expect(refusals().map(({ attempt, reason, ip, userId }) => ({ attempt, reason, ip, userId }))).toEqual([
    ...Array.from({ length: LOGIN_THROTTLE.account.limit }, () => ({ attempt: 'password-check', reason: 'wrong-password', ip: '203.0.113.8', userId: ada.id })),
    { attempt: 'password-check', reason: 'throttled', ip: '203.0.113.8', userId: ada.id },
  ]);
  expect(log.text()).not.toContain('Not-it-1');
  expect(await fail2banAddresses()).toEqual(refusals().map(() => '203.0.113.8'));
});

it('warns once when sign-ins come through a proxy that TRUST_PROXY does not trust, whose address fail2ban would ban', async () => {
  const cases = [
    { trust: 'true', client: '203.0.113.9', warnings: [], loggedIp: '203.0.113.9' },
    { trust: 'false', client: '203.0.113.9', warnings: ['TRUST_PROXY is not set'], loggedIp: '127.0.0.1' },
    { trust: '10.9.8.7', client: '203.0.113.9', warnings: ["127.0.0.1 is not among TRUST_PROXY's addresses"], loggedIp: '127.0.0.1' },
    // A client on the proxy's own machine (curl on the server): the proxy is trusted, nothing to say.
    { trust: '127.0.0.1', client: '127.0.0.1', warnings: [], loggedIp: '127.0.0.1' },
  ];
  for (const { trust, client, warnings, loggedIp } of cases) {
    await t.close();
    await start(trust);
    const user = await registerAndLogin(t.app, {}, from(client));
    await signIn(client, { email: user.email, password: 'Wrong-pass1' });
    const proxyWarnings = log.entries().filter((entry) => entry.msg.includes('X-Forwarded-For'));
    expect(proxyWarnings.map((entry) => /, but (.*?): /.exec(entry.msg)?.[1]), `TRUST_PROXY=${trust}`).toEqual(warnings);
    expect(refusals().map((entry) => entry.ip)).toEqual([loggedIp]);
    if (warnings.length > 0) expect(proxyWarnings[0], 'the address fail2ban would ban').toMatchObject({ proxy: '127.0.0.1' });
  }
  // Straight to the server, with no proxy in between: nothing to say.
  await t.close();
  await start('false');
  const user = await registerAndLogin(t.app);
  await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'Wrong-pass1' } });
  expect(log.entries().filter((entry) => entry.msg.includes('X-Forwarded-For'))).toEqual([]);
});

it('warns once for each host other than PUBLIC_URL\'s that sign-ins are addressed to, whose issuer services would be given', async () => {
  const hostWarnings = () => log.entries().filter((entry) => entry.msg.includes('but PUBLIC_URL is'));
  const user = await registerAndLogin(t.app, {}, { host: '127.0.0.1:8080' });
  const signInAt = (headers: Record<string, string>) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password }, headers });
  await signInAt({ host: '127.0.0.1:8080' });
  // A proxy passing the name alone (nginx's $host), and another name of this same machine.
  await signInAt({ 'x-forwarded-host': '127.0.0.1' });
  await signInAt({ 'x-forwarded-host': 'localhost:8080' });
  await signInAt({ 'x-forwarded-host': '[::1]' });
  expect(hostWarnings()).toEqual([]);
  for (let i = 0; i < 2; i++) await signInAt({ 'x-forwarded-host': 'sso.home.lan' });
  await signInAt({ 'x-forwarded-host': '127.0.0.1:8443' });
  expect(hostWarnings().map((entry) => entry.msg)).toEqual([
    'a sign-in came addressed to sso.home.lan, but PUBLIC_URL is http://127.0.0.1:8080: services are given that issuer and its links. If sso.home.lan is the address people use, set PUBLIC_URL to it',
    'a sign-in came addressed to 127.0.0.1:8443, but PUBLIC_URL is http://127.0.0.1:8080: services are given that issuer and its links. If 127.0.0.1:8443 is the address people use, set PUBLIC_URL to it',
  ]);
  expect(hostWarnings()[0]).toMatchObject({ host: 'sso.home.lan', publicUrl: 'http://127.0.0.1:8080' });
});

it("says nothing of sign-ins addressed to PUBLIC_URL's own name, and warns of no more than 20 other hosts", async () => {
  await t.close();
  await start('true', { PUBLIC_URL: 'https://sso.home.lan' });
  const hostWarnings = () => log.entries().filter((entry) => entry.msg.includes('but PUBLIC_URL is')).map((entry) => entry.host);
  const user = await registerAndLogin(t.app, {}, { 'x-forwarded-host': 'sso.home.lan' });
  const signInAt = async (host: string) => {
    const answer = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password }, headers: { 'x-forwarded-host': host } });
    expect(answer.status, host).toBe(200);
  };
  for (const host of ['sso.home.lan', 'SSO.Home.Lan', 'sso.home.lan:443']) await signInAt(host);
  expect(hostWarnings()).toEqual([]);
  // A Host no URL can hold is another host all the same, not a failed sign-in.
  await signInAt('sso home lan');
  for (let i = 1; i <= 25; i++) await signInAt(`host${i}.home.lan`);
  expect(hostWarnings()).toEqual(['sso home lan', ...Array.from({ length: 19 }, (_, i) => `host${i + 1}.home.lan`)]);
});

it("loads the README's jail in fail2ban with the filter we ship, each setting as written", async () => {
  const readme = await readFile('README.md', 'utf8');
  const jail = /```ini\n(# \/etc\/fail2ban\/jail\.d\/home-guard\.local\n[\s\S]*?)```/.exec(readme)?.[1];
  expect(jail, "README's jail").toBeDefined();
  const dump = await inTempDir(async (dir) => {
    // Debian's configuration with our two files in it, and none of its own jails.
    const config = path.join(dir, 'fail2ban');
    await cp('/etc/fail2ban', config, { recursive: true });
    await rm(path.join(config, 'jail.d'), { recursive: true });
    await mkdir(path.join(config, 'jail.d'));
    const log = path.join(dir, 'home-guard.log');
    await writeFile(log, '');
    await writeFile(path.join(config, 'jail.d', 'home-guard.local'), jail!.replace('/var/log/home-guard.log', log));
    await copyFile(FILTER, path.join(config, 'filter.d', 'home-guard.conf'));
    return (await promisify(execFile)('fail2ban-client', ['-c', config, '-d'])).stdout;
  });
  const settings = dump.split('\n').filter((line) => line.startsWith("['set', 'home-guard'"));
  expect(settings).toEqual(
    expect.arrayContaining([
      `['set', 'home-guard', 'addfailregex', '"ip":"<ADDR>".*"msg":"authentication refused"']`,
      `['set', 'home-guard', 'datepattern', '"time":{LEPOCH}']`,
      "['set', 'home-guard', 'maxretry', 10]",
      "['set', 'home-guard', 'findtime', '10m']",
      "['set', 'home-guard', 'bantime', '1h']",
    ]),
  );
  // The ports the firewall closes: exactly those, nothing of a comment after them.
  expect(dump).toContain("['port', 'http,https']");
});

it('logs registrations refused to an address that kept trying taken emails, and fail2ban reads it; the taken emails themselves are not refusals', async () => {
  const taken = await registerAndLogin(t.app);
  const register = (email?: string) => call(t.app, 'POST', '/api/v1/register', { body: validRegistration(email ? { email } : {}), headers: from('203.0.113.9') });
  for (let i = 0; i < REGISTER_THROTTLE.limit; i++) expect((await register(taken.email)).status).toBe(409);
  expect(refusals()).toEqual([]);
  expect((await register()).status).toBe(429);

  expect(refusals().map(({ attempt, reason, ip }) => ({ attempt, reason, ip }))).toEqual([{ attempt: 'registration', reason: 'throttled', ip: '203.0.113.9' }]);
  expect(log.text()).not.toContain(taken.email);
  expect(await fail2banAddresses()).toEqual(['203.0.113.9']);
});
