import { afterEach, expect, it, vi } from 'vitest';
import { UsersRepository } from '../../server/accounts/users-repository';
import { call, startTestApp, validRegistration, type TestApp } from '../support/test-app';

let t: TestApp;
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

const RACING = 6;

/** Registrations sent at once, each held after its checks until all have made them: the race, every time. */
async function registerAtOnce(registration: () => Record<string, unknown> = validRegistration) {
  let reads = 0;
  let allRead: () => void = () => {};
  const barrier = new Promise<void>((resolve) => (allRead = resolve));
  const freeUsername = UsersRepository.prototype.freeUsername;
  vi.spyOn(UsersRepository.prototype, 'freeUsername').mockImplementation(async function (this: UsersRepository, email: string) {
    const name = await freeUsername.call(this, email);
    if (++reads === RACING) allRead();
    await barrier;
    return name;
  });
  const answers = await Promise.all(Array.from({ length: RACING }, () => call(t.app, 'POST', '/api/v1/register', { body: registration() })));
  vi.restoreAllMocks();
  return answers;
}

const accounts = () => t.db.selectFrom('users').select(['id', 'is_admin']).execute();

it('makes one administrator of registrations racing on a fresh install; the others get ordinary accounts', async () => {
  t = await startTestApp();
  const answers = await registerAtOnce();
  expect(answers.map((answer) => answer.status)).toEqual(Array(RACING).fill(200));
  const made = await accounts();
  expect(made).toHaveLength(RACING);
  expect(made.filter((user) => user.is_admin === 1)).toHaveLength(1);
});

it('with registration closed, gives the racers that lose the usual refusal and no account', async () => {
  t = await startTestApp({ REGISTRATION: 'closed' });
  const answers = await registerAtOnce();
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(refused.map((answer) => [answer.status, answer.body])).toEqual(Array(RACING - 1).fill([403, { error: 'registration is closed; ask an administrator for an account' }]));
  expect(await accounts()).toEqual([{ id: answers.find((answer) => answer.status === 200)!.body.id, is_admin: 1 }]);
});

it('takes an administrator made on the command line as the first one, and makes more there', async () => {
  t = await startTestApp({ REGISTRATION: 'closed' });
  const cli = { admin: true, bypassClosedRegistration: true };
  const first = validRegistration();
  await t.app.services.accounts.register(first, cli);
  // Told before anything else is judged: a closed sign-up says nothing of which emails have an account.
  for (const body of [validRegistration(), validRegistration({ email: first.email }), validRegistration({ password: 'Password1' })]) {
    expect(await call(t.app, 'POST', '/api/v1/register', { body })).toMatchObject({ status: 403, body: { error: 'registration is closed; ask an administrator for an account' } });
  }
  await t.app.services.accounts.register(validRegistration(), cli);
  expect((await accounts()).map((user) => user.is_admin)).toEqual([1, 1]);
});

it('makes no one else administrator where one was made before the claim existed', async () => {
  t = await startTestApp();
  expect((await call(t.app, 'POST', '/api/v1/register', { body: validRegistration() })).status).toBe(200);
  await t.db.deleteFrom('first_administrator').execute(); // as an install upgraded with its administrator
  expect((await call(t.app, 'POST', '/api/v1/register', { body: validRegistration() })).status).toBe(200);
  expect((await accounts()).filter((user) => user.is_admin === 1)).toHaveLength(1);
});

it('makes one account of registrations of one email racing past its check; the others are told it is registered', async () => {
  t = await startTestApp();
  const email = 'pat@example.com';
  const answers = await registerAtOnce(() => validRegistration({ email }));
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  expect(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body])).toEqual(Array(RACING - 1).fill([409, { error: 'email is already registered' }]));
  expect(await t.db.selectFrom('users').select('email').execute()).toEqual([{ email }]);
});
