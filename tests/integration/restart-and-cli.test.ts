import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { httpJson, runTs, startServerProcess, type ServerProcess } from '../support/server-process';
import { codeIn } from '../support/smtp-sink';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let server: ServerProcess | undefined;

// The server processes get the test database and an empty web root (no PWA build needed).
const serverEnv = () => ({
  DATA_DIR: database.dataDir,
  STATIC_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-empty-web-')),
  ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
});

beforeEach(async () => {
  database = await createTestDatabase();
});

/** The mails written to the outbox (no SMTP_URL here), by the server or the command line, and their subjects. */
const outboxMails = () => {
  const outbox = path.join(database.dataDir, 'outbox');
  return readdirSync(outbox).map((file) => readFileSync(path.join(outbox, file), 'utf8'));
};
const outboxSubjects = () => outboxMails().map((mail) => /^Subject: (.+)$/m.exec(mail)![1]);
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
  await database.drop();
});

// Each test starts server processes and the admin command through tsx: seconds apiece on a
// busy 2-core machine, so they get more time than an in-process test.
describe('the server process', { timeout: 120_000 }, () => {
  it('keeps every account and session when it is killed and started again on the same data', async () => {
    server = await startServerProcess(serverEnv());
    const email = 'restart@example.com';
    expect((await httpJson(`${server.url}/api/v1/register`, { method: 'POST', body: { full_name: 'Re Start', email, password: 'Restart123' } })).status).toBe(200);
    const login = await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email, password: 'Restart123' } });
    expect(login.status).toBe(200);
    await server.stop('SIGKILL');

    // Same address (the issuer), same data.
    server = await startServerProcess({ ...serverEnv(), PORT: new URL(server.url).port });
    // The old access token still verifies: the signing keys and the session survived.
    const profile = await httpJson(`${server.url}/api/v1/auth/profile`, { token: login.body.access });
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe(email);
    const refreshed = await httpJson(`${server.url}/api/v1/auth/refresh`, { method: 'POST', body: {}, token: login.body.refresh });
    expect(refreshed.status).toBe(200);
    const again = await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email, password: 'Restart123' } });
    expect(again.status).toBe(200);
  });

  it('on SIGTERM finishes the requests in flight, then stops cleanly', async () => {
    const running = await startServerProcess(serverEnv());
    server = running;
    const person = { full_name: 'In Flight', email: 'flight@example.com', password: 'In-flight1' };
    expect((await httpJson(`${running.url}/api/v1/register`, { method: 'POST', body: person })).status).toBe(200);
    // Twenty sign-ins queue up on the password-hashing threads; the signal arrives while they run.
    const logins = Array.from({ length: 20 }, () => httpJson(`${running.url}/api/v1/auth/login`, { method: 'POST', body: { email: person.email, password: person.password } }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const exited = running.stop('SIGTERM');
    // While draining, the readiness check tells the proxy to stop sending traffic. Asked now, not
    // after the sign-ins: on a busy machine they outlast the drain, and the port is closed by then.
    expect(await readinessOnceSignalled(running.url)).toEqual({ status: 'shutting down' });
    const answers = await Promise.allSettled(logins);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value.status : String(a.reason?.cause?.code ?? a.reason)))).toEqual(Array(20).fill(200));
    expect(await exited).toBe(0);
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });
});

describe('npm run admin', { timeout: 120_000 }, () => {
  it('creates an administrator and resets a password on the configured database', async () => {
    const create = runTs('server/cli/admin.ts', ['create', '--email', 'Boss@Example.com', '--name', 'The Boss'], { ...serverEnv(), HOME_GUARD_PASSWORD: 'Initial123' });
    expect(await create.exited, create.stderr()).toBe(0);
    expect(create.stdout()).toMatch(/created administrator boss@example.com/);

    const duplicate = runTs('server/cli/admin.ts', ['create', '--email', 'boss@example.com', '--name', 'Again'], { ...serverEnv(), HOME_GUARD_PASSWORD: 'Initial123' });
    expect(await duplicate.exited).toBe(2);
    expect(duplicate.stderr()).toMatch(/email is already registered/);

    const weak = runTs('server/cli/admin.ts', ['reset-password', '--email', 'boss@example.com'], serverEnv(), 'weak\n');
    expect(await weak.exited).toBe(2);
    expect(weak.stderr()).toMatch(/Password must be at least 8 characters long/);
    expect(weak.stderr(), 'one line, no usage after it').not.toContain('Usage:');
    const common = runTs('server/cli/admin.ts', ['reset-password', '--email', 'boss@example.com'], serverEnv(), 'Password1\n');
    expect(await common.exited).toBe(2);
    expect(common.stderr()).toMatch(/This password is one of the most common/);

    server = await startServerProcess(serverEnv());
    const first = await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email: 'boss@example.com', password: 'Initial123' } });
    expect(first.status).toBe(200);
    const otherDevice = await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email: 'boss@example.com', password: 'Initial123' } });
    expect(otherDevice.status).toBe(200);
    const profile = await httpJson(`${server.url}/api/v1/auth/profile`, { token: first.body.access });
    expect(profile.body.is_admin).toBe(true);
    // The owner proves the address (notices go only to a proved one), with the code from the outbox.
    expect((await httpJson(`${server.url}/api/v1/auth/email`, { method: 'POST', token: first.body.access, body: {} })).status).toBe(200);
    const otp = codeIn(outboxMails().find((mail) => mail.includes('verification code is'))!);
    expect((await httpJson(`${server.url}/api/v1/auth/email/otp`, { method: 'POST', token: first.body.access, body: { otp } })).status).toBe(200);

    // The password comes from standard input here, as from a pipe.
    const reset = runTs('server/cli/admin.ts', ['reset-password', '--email', 'boss@example.com'], serverEnv(), 'Changed456\n');
    expect(await reset.exited, reset.stderr()).toBe(0);
    // The owner is told, even though the command's process ends at once.
    expect(outboxSubjects()).toContain('Your Home Guard password was changed by an administrator');
    // Every session of the account has ended: on both devices, neither token works any more.
    for (const device of [first, otherDevice]) {
      expect((await httpJson(`${server.url}/api/v1/auth/profile`, { token: device.body.access })).status).toBe(401);
      expect((await httpJson(`${server.url}/api/v1/auth/refresh`, { method: 'POST', token: device.body.refresh, body: {} })).status).toBe(401);
    }
    expect((await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email: 'boss@example.com', password: 'Initial123' } })).status).toBe(401);
    const second = await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email: 'boss@example.com', password: 'Changed456' } });
    expect(second.status).toBe(200);

    // Lost the authenticator app: the command line turns two-step sign-in off.
    const setup = await httpJson(`${server.url}/api/v1/auth/two-step/setup`, { method: 'POST', token: second.body.access, body: {} });
    const secret = setup.body.secret as string;
    const on = await httpJson(`${server.url}/api/v1/auth/two-step`, { method: 'PUT', token: second.body.access, body: { secret, code: totpCode(secret, totpStep(Date.now())), current_password: 'Changed456' } });
    expect(on.status).toBe(200);
    expect((await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email: 'boss@example.com', password: 'Changed456' } })).body.field).toBe('code');
    const turnOff = runTs('server/cli/admin.ts', ['turn-off-two-step', '--email', 'Boss@Example.com'], serverEnv());
    expect(await turnOff.exited, turnOff.stderr()).toBe(0);
    expect(turnOff.stdout()).toMatch(/two-step sign-in of Boss@Example.com turned off/);
    expect(outboxSubjects().filter((subject) => subject === 'Two-step sign-in is off for your Home Guard account')).toHaveLength(1);
    expect((await httpJson(`${server.url}/api/v1/auth/login`, { method: 'POST', body: { email: 'boss@example.com', password: 'Changed456' } })).status).toBe(200);
    const nobody = runTs('server/cli/admin.ts', ['turn-off-two-step', '--email', 'nobody@example.com'], serverEnv());
    expect(await nobody.exited).toBe(2);
    expect(nobody.stderr()).toMatch(/account not found/);
    const again = runTs('server/cli/admin.ts', ['turn-off-two-step', '--email', 'boss@example.com'], serverEnv());
    expect([await again.exited, again.stdout()]).toEqual([0, 'two-step sign-in of boss@example.com was already off\n']);
    // The audit log has what the command line did (once each), by no account and from no address.
    const audit = await httpJson(`${server.url}/api/v1/admin/audit-log?size=100&user_id=${profile.body.id}`, { token: second.body.access });
    const fromTheCommandLine = (audit.body.items as Array<Record<string, unknown>>).filter((event) => event.actor_id === null && event.ip_address === null);
    expect(fromTheCommandLine.map((event) => [event.kind, event.detail])).toEqual([['two-step-off', null], ['password-changed', 'set-by-administrator'], ['account-created', 'administrator']]);

    const rotate = runTs('server/cli/admin.ts', ['rotate-keys'], serverEnv());
    expect(await rotate.exited, rotate.stderr()).toBe(0);
    // For a day and an access token's lifetime (15 min here), in words an operator reads at a glance.
    expect(rotate.stdout()).toMatch(/new signing keys: ES256 .+, RS256 .+; the old ones stay published for 24 h 15 min after that/);
    // The running server still accepts what it signed before; started again, it publishes all four keys.
    expect((await httpJson(`${server.url}/api/v1/auth/profile`, { token: second.body.access })).status).toBe(200);
    await server.stop();
    // Same port, same issuer: the tokens name it.
    server = await startServerProcess({ ...serverEnv(), PORT: new URL(server.url).port });
    expect((await httpJson(`${server.url}/.well-known/jwks.json`)).body.keys).toHaveLength(4);
    expect((await httpJson(`${server.url}/api/v1/auth/profile`, { token: second.body.access })).status).toBe(200);

    // Keys that may have leaked: replaced at once, and what they signed is refused.
    const replace = runTs('server/cli/admin.ts', ['rotate-keys', '--now'], serverEnv());
    expect(await replace.exited, replace.stderr()).toBe(0);
    expect(replace.stdout()).toMatch(/new signing keys: ES256 .+, RS256 .+, signing now; the old ones are deleted/);
    await server.stop();
    server = await startServerProcess({ ...serverEnv(), PORT: new URL(server.url).port });
    expect((await httpJson(`${server.url}/.well-known/jwks.json`)).body.keys).toHaveLength(2);
    expect((await httpJson(`${server.url}/api/v1/auth/profile`, { token: second.body.access })).status).toBe(401);
  });
});

/** /readyz from the moment the signal is handled: polled, as the signal arrives on its own time. */
async function readinessOnceSignalled(url: string): Promise<unknown> {
  for (let tries = 0; ; tries += 1) {
    const { body } = await httpJson(`${url}/readyz`);
    if (body?.status !== 'ready' || tries >= 40) return body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
