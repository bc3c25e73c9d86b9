import { randomInt } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** Seed data through the server's public API, as a second device of the same person would. */
export const E2E_URL = 'http://127.0.0.1:8181';
const dataDir = () => {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return dir;
};

export type Person = { name: string; email: string; password: string };

let counter = 0;
export function newPerson(prefix = 'user'): Person {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return { name: `${prefix[0]!.toUpperCase()}${prefix.slice(1)} ${id.slice(-4)}`, email: `${prefix}.${id}@e2e.test`, password: 'Correct-horse1' };
}

async function json(method: string, url: string, body?: unknown, token?: string, base = E2E_URL, extraHeaders: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${url}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export const register = (person: Person, base = E2E_URL) => json('POST', '/api/v1/register', { full_name: person.name, email: person.email, password: person.password }, undefined, base);
export const login = async (person: Person, base = E2E_URL) => (await json('POST', '/api/v1/auth/login', { email: person.email, password: person.password }, undefined, base)) as { access: string; refresh: string; id: string };

/** Turns on two-step sign-in as the person's own device would; answers the secret their authenticator app holds. */
export async function turnOnTwoStep(person: Person, code: (secret: string) => string, base = E2E_URL): Promise<{ id: string; recoveryCodes: string[] }> {
  const { access, id } = await login(person, base);
  const { secret } = (await json('POST', '/api/v1/auth/two-step/setup', {}, access, base)) as { secret: string };
  const on = (await json('PUT', '/api/v1/auth/two-step', { secret, code: code(secret), current_password: person.password }, access, base)) as { recovery_codes: string[] };
  return { id, recoveryCodes: on.recovery_codes };
}

/** Starts setting up two-step sign-in on another device of the person's, which replaces any setup begun before. */
export async function setUpTwoStepElsewhere(person: Person, base = E2E_URL): Promise<void> {
  const { access } = await login(person, base);
  await json('POST', '/api/v1/auth/two-step/setup', {}, access, base);
}

/** The newest mail to `email` matching `pattern`, its first group (the e2e server writes mails to its outbox). */
function latestInMailTo(email: string, pattern: RegExp, outboxDir: string): string | undefined {
  if (!existsSync(outboxDir)) return undefined;
  const files = readdirSync(outboxDir)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => path.join(outboxDir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const file of files) {
    // Unfolded: a long address moves to a header line of its own (RFC 5322 §2.2.3), and
    // quoted-printable breaks a long link with soft line breaks (RFC 2045 §6.7).
    const mail = readFileSync(file, 'utf8').replace(/\r?\n[ \t]+/g, ' ').replace(/=\r?\n/g, '');
    if (mail.includes(`To: ${email}`) && pattern.test(mail)) return pattern.exec(mail)![1]!;
  }
  return undefined;
}

/** The newest verification code mailed to `email`. */
export function latestCodeFor(email: string, outboxDir = path.join(dataDir(), 'outbox')): string {
  const code = latestInMailTo(email, /verification code is: (\d{6})/, outboxDir);
  if (!code) throw new Error(`no mail to ${email} in ${outboxDir}`);
  return code;
}

/** The password reset link mailed to `email`, once the mail is there (it is sent after the answer). */
export async function resetLinkFor(email: string, outboxDir = path.join(dataDir(), 'outbox')): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const link = latestInMailTo(email, /(https?:\/\/\S+\/auth\/reset-password#[\w-]+)/, outboxDir);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no reset mail to ${email} in ${outboxDir}`);
}

export const avatarPng = (colour = '#1c7ed6') => sharp({ create: { width: 256, height: 256, channels: 3, background: colour } }).png().toBuffer();

/** Completes verification through the API: email code from the outbox, a picture, verify. */
export async function verifyThroughApi(person: Person, base = E2E_URL, outboxDir?: string): Promise<void> {
  let { access } = await login(person, base);
  // A server with 4-second access tokens (tokens-and-offline.spec.ts) on a busy machine outlives
  // one during these steps: a step answered 401 signs in again and is sent once more.
  const signedIn = async (step: (token: string) => Promise<unknown>) => {
    try {
      await step(access);
    } catch (error) {
      if (!/: 401 /.test(String(error))) throw error;
      access = (await login(person, base)).access;
      await step(access);
    }
  };
  // Each person from an address of their own, as people are (the server, behind its proxy, counts
  // the codes asked for from one address): the suite verifies hundreds from this one machine.
  const from = { 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` };
  await signedIn((token) => json('POST', '/api/v1/auth/email', {}, token, base, from));
  await signedIn((token) => json('POST', '/api/v1/auth/email/otp', { otp: latestCodeFor(person.email, outboxDir) }, token, base));
  const picture = new Uint8Array(await avatarPng());
  await signedIn(async (token) => {
    const form = new FormData();
    form.append('image', new Blob([picture], { type: 'image/png' }), 'avatar.png');
    const uploaded = await fetch(`${base}/api/v1/avatar`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
    if (!uploaded.ok) throw new Error(`PUT /api/v1/avatar: ${uploaded.status} ${await uploaded.text()}`);
  });
  await signedIn((token) => json('POST', '/api/v1/auth/verify', {}, token, base));
}

/** Creates a service through the API, signed in as `admin`; the fields given replace a Grafana's. */
export async function createService(admin: Person, fields: Record<string, unknown>, base = E2E_URL) {
  const { access } = await login(admin, base);
  const service = { name: 'Grafana', description: 'Dashboards', scopes: ['openid', 'email', 'profile', 'offline_access'], grant_types: ['authorization_code', 'refresh_token'], ...fields };
  const body = await json('POST', '/api/v1/admin/api-services', service, access, base);
  return { id: body.id as string, clientId: body.credentials.client_id as string, clientSecret: body.credentials.client_secret as string, adminToken: access };
}

/** A registered, fully verified person. */
export async function verifiedPerson(prefix = 'user', base = E2E_URL, outboxDir?: string): Promise<Person> {
  const person = newPerson(prefix);
  await register(person, base);
  await verifyThroughApi(person, base, outboxDir);
  return person;
}
