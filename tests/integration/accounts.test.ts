import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountsService } from '../../server/accounts/accounts-service';
import { LOGIN_THROTTLE } from '../../server/accounts/sign-in';
import { UsersRepository } from '../../server/accounts/users-repository';
import { ServiceSessionsRepository } from '../../server/oauth/service-sessions-repository';
import { holdTheNextCallBeforeItRuns } from '../support/hold-a-call';
import { call, registerAndLogin, startTestApp, validRegistration, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

describe('registration', () => {
  it('creates an account that can sign in; the first account becomes the administrator', async () => {
    const first = await registerAndLogin(t.app);
    const second = await registerAndLogin(t.app);
    const firstProfile = await call(t.app, 'GET', '/api/v1/auth/profile', { token: first.access });
    const secondProfile = await call(t.app, 'GET', '/api/v1/auth/profile', { token: second.access });
    expect(firstProfile.body).toMatchObject({ email: first.email, full_name: 'Ada Lovelace', username: first.email.split('@')[0], is_admin: true, email_verified: false, avatar_verified: false, verified: false });
    expect(secondProfile.body).toMatchObject({ email: second.email, is_admin: false });
  });

  it('refuses a second account with the same email in any letter case, leaving the first untouched', async () => {
    const first = await registerAndLogin(t.app, { email: 'grace@example.com', phone_number: '+44 1234' });
    const again = await call(t.app, 'POST', '/api/v1/register', {
      body: validRegistration({ email: '  GRACE@Example.COM ', full_name: 'Impostor', password: 'Different9' }),
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'email is already registered' });
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'grace@example.com', password: first.password } });
    expect(login.status).toBe(200);
    expect(login.body.full_name).toBe('Ada Lovelace');
    const profile = await call(t.app, 'GET', '/api/v1/auth/profile', { token: login.body.access });
    expect(profile.body.phone_number).toBe('+44 1234');
  });

  it("enforces the spec's password rules with its messages", async () => {
    const cases: Array<[string, string]> = [
      ['Sh0rt', 'Password must be at least 8 characters long'],
      ['12345678', 'Password must contain characters'],
      ['lowercase1', 'Password should contain at least 1 uppercase character'],
      ['NoDigitsHere', 'Password should contain at least 1 digit'],
    ];
    for (const [password, message] of cases) {
      const answer = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ password }) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: `password: ${message}`, field: 'password' });
    }
    const noName = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ full_name: '   ' }) });
    expect(noName.body).toEqual({ error: 'full_name: Full name is required', field: 'full_name' });
    const badEmail = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ email: 'not-an-email' }) });
    expect(badEmail.body).toEqual({ error: 'email: Invalid email', field: 'email' });
    // An address list is someone else's mailbox to a mail program, whatever string is stored.
    for (const list of ['x<victim@example.com>', '<victim@example.com>', 'victim@example.com;x', 'a:victim@example.com;', 'victim@example.com,x@y.z', '"victim"@example.com']) {
      const answer = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ email: list }) });
      expect(answer.body, list).toEqual({ error: 'email: Invalid email', field: 'email' });
    }
    // One mailbox would hold several accounts, each shown as the same address.
    for (const lookalike of ['vic\u200btim@example.com', 'victim@example.com\u2060', 'victim@example.com.']) {
      const answer = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ email: lookalike }) });
      expect(answer.body, JSON.stringify(lookalike)).toEqual({ error: 'email: Invalid email', field: 'email' });
    }
  });

  it('refuses a name with line breaks or other control characters, which would forge lines of its mails', async () => {
    await registerAndLogin(t.app); // the administrator
    for (const full_name of ['Sam,\r\n\r\nYour account will be deleted today', 'Sam\nSmith', 'Sam\tSmith', 'Sam\u001bSmith', 'Sam\u007f', 'Sam\r\n']) {
      const answer = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ full_name }) });
      expect(answer.body, JSON.stringify(full_name)).toEqual({ error: 'full_name: Full name must not contain line breaks or other control characters', field: 'full_name' });
    }
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(1);
    expect((await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ full_name: 'Zoë O’Brien-Łukasz 李' }) })).status).toBe(200);
  });

  it('refuses privilege fields, or any other it does not take, sent with a registration, creating no account', async () => {
    await registerAndLogin(t.app); // the administrator
    for (const [field, value] of Object.entries({ is_admin: true, email_verified: true, verified: true, avatar_verified: true, username: 'chosen' })) {
      const answer = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ [field]: value }) });
      expect([answer.status, answer.body.error], field).toEqual([400, `Unknown field "${field}": this request does not take it`]);
    }
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(1);
    // A phone left out, blank or null, as the profile shows a missing one, is none.
    for (const phone_number of [undefined, '', null]) expect((await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ phone_number }) })).status).toBe(200);
  });

  it('gives people registering at once with alike emails each their own username', async () => {
    const admin = await registerAndLogin(t.app, { email: 'admin@example.com' });
    const emails = ['sam@one.io', 'Sam@two.io', 'sam@three.io', 'sam@four.io', 'sam@five.io'];
    const registered = await Promise.all(emails.map((email) => call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ email }) })));
    expect(registered.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const users = (await call(t.app, 'GET', '/api/v1/admin/users?search=sam', { token: admin.access })).body.items as Array<{ id: string }>;
    const usernames = await Promise.all(users.map(async ({ id }) => (await call(t.app, 'GET', `/api/v1/admin/users/${id}`, { token: admin.access })).body.username as string));
    expect(usernames.sort()).toEqual(['sam', 'sam-2', 'sam-3', 'sam-4', 'sam-5']);
  });

  it('makes the next username when a registration alike took it between reading and writing', async () => {
    const { db, sessions, throttle, notify, authenticatorApps, clock } = t.app.services;
    // Every registration reads a free username before any of them writes it: the race, every time.
    const racing = 3;
    let reads = 0;
    let allRead: () => void = () => {};
    const barrier = new Promise<void>((resolve) => (allRead = resolve));
    class RacingUsers extends UsersRepository {
      override async freeUsername(email: string) {
        const name = await super.freeUsername(email);
        if (++reads === racing) allRead();
        if (reads <= racing) await barrier;
        return name;
      }
    }
    const accounts = new AccountsService(new RacingUsers(db), sessions, new ServiceSessionsRepository(db), throttle, authenticatorApps, t.app.services.signIn, { registration: 'open', log: t.app.log, notify }, clock);
    const made = await Promise.all(['kim@one.io', 'kim@two.io', 'kim@three.io'].map((email) => accounts.register({ full_name: 'Kim', email, password: 'Kimberly-kim1' })));
    const usernames = await db.selectFrom('users').select('username').where('id', 'in', made.map(({ id }) => id)).execute();
    expect(reads, 'the two that lost read again (and again, if they raced each other)').toBeGreaterThanOrEqual(racing + 2);
    expect(usernames.map(({ username }) => username).sort()).toEqual(['kim', 'kim-2', 'kim-3']);
  });

  it('gives up, saying the username is taken, after five made-up usernames each taken by a registration alike between reading and writing', async () => {
    const { db, sessions, throttle, notify, authenticatorApps, clock } = t.app.services;
    let reads = 0;
    class AlwaysOvertaken extends UsersRepository {
      override async freeUsername(email: string) {
        const name = await super.freeUsername(email);
        reads++;
        await t.app.services.accounts.register({ ...validRegistration(), username: name });
        return name;
      }
    }
    const accounts = new AccountsService(new AlwaysOvertaken(db), sessions, new ServiceSessionsRepository(db), throttle, authenticatorApps, t.app.services.signIn, { registration: 'open', log: t.app.log, notify }, clock);
    await expect(accounts.register({ full_name: 'Lee', email: 'lee@one.io', password: 'Lee-the-first1' })).rejects.toThrow('username is already taken');
    expect(reads).toBe(5);
    expect(await db.selectFrom('users').select('id').where('email', '=', 'lee@one.io').execute()).toEqual([]);
  });

  it('says registration is open when it is', async () => {
    await registerAndLogin(t.app);
    expect((await call(t.app, 'GET', '/api/v1/register')).body).toEqual({ open: true });
  });

  it('refuses sign-ups when registration is closed, once an administrator exists', async () => {
    await t.close();
    t = await startTestApp({ REGISTRATION: 'closed' });
    expect((await call(t.app, 'GET', '/api/v1/register')).body).toEqual({ open: true });
    await registerAndLogin(t.app); // no administrator yet: allowed, and becomes one
    const status = await call(t.app, 'GET', '/api/v1/register');
    expect(status.body).toEqual({ open: false });
    expect(status.headers['cache-control']).toBe('no-store');
    const refused = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration() });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/registration is closed/);
  });
});

describe('sign-in', () => {
  it('answers a wrong password and an unknown email alike', async () => {
    const user = await registerAndLogin(t.app);
    const wrongPassword = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'Wrong-password1' } });
    const unknownEmail = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'nobody@example.com', password: 'Wrong-password1' } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body).toEqual({ error: 'Invalid email or password' });
  });

  it('throttles the sixth failure in a minute for one account, even with the right password', async () => {
    const user = await registerAndLogin(t.app);
    for (let i = 0; i < 5; i++) {
      const failure = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: `Wrong-${i}` } });
      expect(failure.status).toBe(401);
    }
    const sixth = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.body.error).toBe('Too many failed attempts; try again in a minute');

    // Another account is not affected, and the window passes.
    const other = await registerAndLogin(t.app);
    expect(other.access).toBeTruthy();
    t.advance(61_000);
    const later = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(later.status).toBe(200);
  });

  it("a lockout begun while the server's clock ran fast does not last as long as the clock was wrong", async () => {
    const user = await registerAndLogin(t.app);
    t.advance(3 * 3_600_000); // three hours fast, after a power cut
    for (let i = 0; i < 5; i++) expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: `Wrong-${i}` } })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(429);
    t.advance(-3 * 3_600_000); // NTP sets it right
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
    // And the new window counts as before.
    for (let i = 0; i < 5; i++) expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: `Wrong-again-${i}` } })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(429);
  });

  it('keeps no one out of their account from where they signed in lately, however many fail elsewhere (ASVS 2.2.1)', async () => {
    const user = await registerAndLogin(t.app); // signed in from 127.0.0.1
    const from = (remoteAddress: string, password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password }, remoteAddress });
    // Someone elsewhere, on several addresses, keeps failing: five a minute for the account in all.
    const elsewhere = ['203.0.113.7', '203.0.113.8', '2001:db8:1:2::9'];
    const failures = [];
    for (let i = 0; i < 8; i++) failures.push((await from(elsewhere[i % 3]!, `Wrong-${i}`)).status);
    expect(failures).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect((await from('198.51.100.1', user.password)).status, 'a new address, even with the password').toBe(429);
    // The owner, where they signed in before: let in, also with a mistake first.
    expect((await from('127.0.0.1', 'Wrong-mine')).status).toBe(401);
    expect((await from('127.0.0.1', user.password)).status).toBe(200);
    // And a guesser there is held to five a minute as well.
    for (let i = 0; i < 5; i++) expect((await from('127.0.0.1', `Wrong-here-${i}`)).status).toBe(401);
    expect((await from('127.0.0.1', user.password)).status).toBe(429);
    // Counted for this account there, not for everyone who signed in from there.
    const neighbour = await registerAndLogin(t.app);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: neighbour.email, password: neighbour.password }, remoteAddress: '127.0.0.1' })).status).toBe(200);
  });

  it('takes no address a proxy calls "unknown" (RFC 7239) for one the account signed in from lately', async () => {
    await t.close();
    t = await startTestApp({ TRUST_PROXY: 'true' });
    const user = await registerAndLogin(t.app, {}, { 'x-forwarded-for': 'unknown' });
    const from = (forwardedFor: string, password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password }, headers: { 'x-forwarded-for': forwardedFor } });
    for (let i = 0; i < 5; i++) expect((await from('unknown', `Wrong-${i}`)).status).toBe(401);
    expect((await from('203.0.113.7', user.password)).status, 'counted for the account, wherever it is tried from').toBe(429);
  });

  it('allows an account at most 100 wrong passwords an hour, five a minute being 300 (ASVS 2.2.1)', async () => {
    const user = await registerAndLogin(t.app); // signed in from 127.0.0.1
    const from = (remoteAddress: string, password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password }, remoteAddress });
    const elsewhere = (i: number) => `203.0.113.${i % 250}`;
    // Twenty minutes of five guesses each, from ever new addresses.
    for (let minute = 0; minute < 20; minute++) {
      for (let i = 0; i < 5; i++) expect((await from(elsewhere(minute * 5 + i), `Wrong-${minute}-${i}`)).status).toBe(401);
      t.advance(61_000);
    }
    const refused = await from('198.51.100.1', user.password);
    expect(refused.status, 'a new minute, but the hour has had its hundred').toBe(429);
    expect(refused.body.error).toBe('Too many failed attempts; try again in 40 minutes');
    // The owner, where they signed in before, is let in; that forgets only their own address's count.
    expect((await from('127.0.0.1', user.password)).status).toBe(200);
    expect((await from('198.51.100.1', user.password)).status).toBe(429);
    t.advance(40 * 60_000);
    expect((await from('198.51.100.1', user.password)).status, 'the hour is over').toBe(200);
  });

  it("clears an account's failures when it signs in", async () => {
    const user = await registerAndLogin(t.app);
    const attempt = (password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password } });
    for (let i = 0; i < 4; i++) expect((await attempt(`Wrong-${i}`)).status).toBe(401);
    expect((await attempt(user.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await attempt(`Wrong-again-${i}`)).status).toBe(401);
    expect((await attempt(user.password)).status).toBe(429);
  });

  it('judges no more guesses than the limit when they come all at once', async () => {
    const user = await registerAndLogin(t.app);
    // Sent together, each is counted before its password is hashed: none slips past a check that
    // the others have not failed yet.
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: `Wrong-${i}` } })));
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_THROTTLE.account.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - LOGIN_THROTTLE.account.limit);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(429);
  });

  it('never counts sign-ins that succeed, one after another or all at once, against their address', async () => {
    const user = await registerAndLogin(t.app);
    const signIn = () => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
    for (let i = 0; i < LOGIN_THROTTLE.address.limit + 5; i++) expect((await signIn()).status).toBe(200);
    const together = await Promise.all(Array.from({ length: 20 }, signIn));
    expect(together.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    // And a failure after them is the first one on record: four more are allowed.
    for (let i = 0; i < LOGIN_THROTTLE.account.limit; i++) expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: `Wrong-${i}` } })).status).toBe(401);
  });

  it('throttles unknown emails the same way (no enumeration through the throttle)', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'ghost@example.com', password: 'x' } })).status).toBe(401);
    }
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'GHOST@example.com', password: 'x' } })).status).toBe(429);
  });

  it('records the session with its device, address and times', async () => {
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    const user = await registerAndLogin(t.app, {}, { 'user-agent': agent });
    const session = await t.db.selectFrom('user_sessions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const device = JSON.parse(Buffer.from(session.device_info, 'base64').toString('utf8'));
    expect(device).toEqual({ os: 'Linux', os_version: '', browser: 'Chrome', browser_version: '120.0.0.0' });
    expect(session.ip_address).toBe('127.0.0.1');
    expect(session.expires_at - session.issued_at).toBe(30 * 24 * 3600 * 1000);
    expect(session.last_active).toBe(session.issued_at);
    expect(session.revoked_at).toBeNull();
    const row = await t.db.selectFrom('users').select(['last_login', 'password_hash']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.last_login).toBe(session.issued_at);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('an account deleted as a request reads it', () => {
  it('is a token refused, not a server error', async () => {
    const user = await registerAndLogin(t.app);
    // The access token checked, then the account read again: by completing verification, say.
    const { held, release } = holdTheNextCallBeforeItRuns(UsersRepository.prototype, 'findById');
    const asked = call(t.app, 'POST', '/api/v1/auth/verify', { token: user.access, body: {} });
    await held;
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    release();
    expect(await asked).toMatchObject({ status: 401, body: { error: 'The token is invalid or has expired' } });
  });
});
