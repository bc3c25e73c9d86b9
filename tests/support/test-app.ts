import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import type { Services } from '../../server/services';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { keepForNextTest, rememberTemplate, takeSpareDatabase } from './spare-databases';
import { createTestDatabase, openTestDatabase, type TestDatabase } from './test-database';

export type TestApp = {
  app: FastifyInstance & { services: Services };
  db: Database;
  database: TestDatabase;
  /** Moves the app's clock (milliseconds); the app never reads the real time. */
  advance(ms: number): void;
  close(): Promise<void>;
};

export type LogEntry = { msg: string; err?: { message: string }; [field: string]: unknown };

/** A logger for `startTestApp` that keeps what the app logs, to check what an operator reads. */
export function capturedLog() {
  const lines: string[] = [];
  return {
    logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    entries: () => lines.map((line) => JSON.parse(line) as LogEntry),
    /** The log as written, one JSON line per entry: what fail2ban reads, and where a secret must not be. */
    text: () => lines.join(''),
    /** Drops what was logged so far, to look at what comes next. */
    forget: () => void lines.splice(0),
  };
}

/** A whole app on its own fresh database, with a clock the test controls. */
export async function startTestApp(env: Record<string, string> = {}, options: Pick<AppOptions, 'refreshGraceSeconds' | 'logger' | 'mailer' | 'requestTimeoutMs' | 'resetMailDelayMs'> = {}): Promise<TestApp> {
  // A copy of the project's template (template-database.ts), or on PostgreSQL one an earlier test
  // emptied back to it (spare-databases.ts): migrating it again finds nothing to do.
  const database = takeSpareDatabase() ?? (await createTestDatabase(undefined, inject('templateDatabase')));
  const { db } = await openTestDatabase(database);
  await rememberTemplate(database, db);
  const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', ...env });
  let now = Date.now();
  // Reset links mailed at once: the random wait (RESET_MAIL_DELAY_MS) has a test of its own.
  const app = await buildApp(config, { db, clock: () => now, logger: false, resetMailDelayMs: [0, 0], ...options });
  await app.ready();
  return {
    app,
    db,
    database,
    advance: (ms) => {
      now += ms;
    },
    close: async () => {
      await app.close();
      const kept = await keepForNextTest(database, db);
      await db.destroy();
      if (!kept) await database.drop();
    },
  };
}

export type JsonResponse<T = Record<string, unknown>> = { status: number; body: T; headers: Record<string, unknown> };

/** Sends a JSON request through the app and parses the answer; `remoteAddress` is the client's address (127.0.0.1 unless told). */
export async function call<T = Record<string, any>>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string; remoteAddress?: string } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}), ...(options.remoteAddress !== undefined ? { remoteAddress: options.remoteAddress } : {}) });
  let body: unknown;
  try {
    body = response.json();
  } catch {
    body = response.body;
  }
  return { status: response.statusCode, body: body as T, headers: response.headers };
}

export const validRegistration = (overrides: Record<string, unknown> = {}) => ({
  full_name: 'Ada Lovelace',
  email: `ada.${Math.random().toString(36).slice(2, 8)}@example.com`,
  password: 'Analytical1',
  ...overrides,
});

/** Marks an account's address as proved, as the mailed code does: security notices go only to such an address. */
export const proveEmail = async (db: Database, userId: string): Promise<void> => {
  await db.updateTable('users').set({ email_verified: 1 }).where('id', '=', userId).execute();
};

/** Registers and signs in a new account; returns its tokens and email. */
export async function registerAndLogin(app: FastifyInstance, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const registration = validRegistration(overrides);
  const registered = await call(app, 'POST', '/api/v1/register', { body: registration });
  if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const login = await call(app, 'POST', '/api/v1/auth/login', { body: { email: registration.email, password: registration.password }, headers });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { ...registration, id: login.body.id as string, access: login.body.access as string, refresh: login.body.refresh as string };
}

/**
 * Turns on the account's two-step sign-in as its owner would, the address proved first; answers
 * with the authenticator app's secret and the recovery codes shown.
 */
export async function turnOnTwoStep(t: Pick<TestApp, 'app' | 'db'>, user: { id: string; access: string; password: string }) {
  await proveEmail(t.db, user.id);
  const secret = (await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: user.access })).body.secret as string;
  const code = totpCode(secret, totpStep(t.app.services.clock()));
  const on = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code, current_password: user.password } });
  if (on.status !== 200) throw new Error(`two-step sign-in was not turned on: ${JSON.stringify(on.body)}`);
  return { secret, recoveryCodes: on.body.recovery_codes as string[] };
}

/** Calls made with one bearer token, by method. */
export const callsWith = (app: FastifyInstance, token: string) => ({
  get: (url: string) => call(app, 'GET', url, { token }),
  post: (url: string, body: unknown) => call(app, 'POST', url, { token, body }),
  put: (url: string, body: unknown) => call(app, 'PUT', url, { token, body }),
  patch: (url: string) => call(app, 'PATCH', url, { token, body: {} }),
  delete: (url: string) => call(app, 'DELETE', url, { token }),
});
