import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { z } from 'zod';
import { emailField, newPasswordField, phoneField, requiredText, typedEmailField } from '../../contract/fields';
import type { AuditSource } from '../audit/audit-log';
import { ConfigError, loadConfig, type Config } from '../config';
import { migrateToLatest, openDatabase, sqliteFile } from '../db/database';
import { DatabaseProblem } from '../db/database-problems';
import { missingDatabase } from '../db/existing-database';
import { AppError } from '../errors';
import { SIGNING_ALGS } from '../keys/signing-keys';
import { backupSqlite } from '../operations/sqlite-backup';
import { createServices, type Services } from '../services';
import { OperatorError, UsageError } from './operator-errors';
import { readPassword } from './read-password';

const USAGE = `Usage:
  npm run admin -- create --email EMAIL --name "FULL NAME" [--phone PHONE]
  npm run admin -- reset-password --email EMAIL
  npm run admin -- turn-off-two-step --email EMAIL
  npm run admin -- rotate-keys [--now]
  npm run admin -- backup --to FILE

rotate-keys publishes new signing keys at once and signs with them six minutes later, when
every cached copy of the key set has them; the old ones stay published until the tokens they
signed have expired (ACCESS_TOKEN_TTL plus a day), so nobody is signed out. With --now, for
keys that may have leaked (a copy of the database gone astray): the new keys sign at once and
the old ones are deleted, so nothing they signed is accepted any more; services' sign-ins end
with their ID tokens, and the app refreshes its own tokens unnoticed.
turn-off-two-step lets someone who lost their authenticator app sign in with the password
alone (administrators can also do it on the user's Edit page).
backup copies the SQLite database consistently while the server runs (for PostgreSQL use
pg_dump, see the README).

The password is read from HOME_GUARD_PASSWORD, or asked for. The command works on the
database the server is configured with (DATABASE_URL, or DATA_DIR for SQLite).`;

/** The options each command takes; anything else on its line is refused before it runs. */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  create: ['email', 'name', 'phone'],
  'reset-password': ['email'],
  'turn-off-two-step': ['email'],
  'rotate-keys': ['now'],
  backup: ['to'],
};

const createArgs = z.object({ email: emailField, name: requiredText('Full name'), phone: phoneField });
const resetArgs = z.object({ email: typedEmailField });

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues.map((i) => `${i.path[0] === 'password' ? 'password' : `--${String(i.path[0])}`}: ${i.message}`).join('; ');
  // A weak password is no command written wrong: the usage after it only buried the one line.
  throw result.error.issues.every((i) => i.path[0] === 'password') ? new OperatorError(message) : new UsageError(message);
}

async function run(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, phone: { type: 'string' }, to: { type: 'string' }, now: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...extra] = positionals;
  if (values.help || !command) return USAGE;
  checkCommandLine(command, extra, Object.keys(values));
  if (command === 'rotate-keys') return values.now ? replaceKeys(await existingDatabase()) : rotateKeys(await existingDatabase());
  if (command === 'backup') return backup(values.to);
  if (command === 'turn-off-two-step') {
    const { email } = parsed(resetArgs, values);
    return turnOffTwoStep(await existingDatabase(), email);
  }
  const args = command === 'create' ? parsed(createArgs, values) : { ...parsed(resetArgs, values), name: '', phone: undefined };
  // Only create makes a database; the others are refused before the password is asked for.
  const config = command === 'create' ? loadConfig(process.env) : await existingDatabase();
  const password = parsed(z.object({ password: newPasswordField }), { password: await readPassword(process.env) }).password;

  return withServices(config, async (services) => {
    if (command === 'create') {
      const { id } = await services.accounts.register({ email: args.email, full_name: args.name, phone_number: args.phone, password }, { admin: true, bypassClosedRegistration: true });
      await services.audit.record({ kind: 'account-created', userId: id, detail: 'administrator' }, FROM_THE_COMMAND_LINE);
      return `created administrator ${args.email.toLowerCase()} (${id})`;
    }
    const userId = await services.accounts.resetPassword(args.email, password);
    await services.audit.record({ kind: 'password-changed', userId, detail: 'set-by-administrator' }, FROM_THE_COMMAND_LINE);
    return `password of ${args.email} changed; its sessions were signed out`;
  });
}

/** The audit log's source for what the command line does: no account, no address. */
const FROM_THE_COMMAND_LINE: AuditSource = { actorId: null };

function checkCommandLine(command: string, extra: string[], options: string[]): void {
  const allowed = COMMAND_OPTIONS[command];
  if (!allowed) throw new UsageError(`unknown command "${command}"`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" after ${command}`);
  const misplaced = options.find((name) => name !== 'help' && !allowed.includes(name));
  if (misplaced) throw new UsageError(`${command} does not take --${misplaced}`);
}

/**
 * The configuration, once it points at a Home Guard database: a typo in DATA_DIR must not
 * create and migrate a new, empty one and then report "account not found".
 */
async function existingDatabase(config = loadConfig(process.env)): Promise<Config> {
  const missing = await missingDatabase(config);
  if (missing) throw new OperatorError(`no Home Guard database at ${missing}: check DATA_DIR / DATABASE_URL`);
  return config;
}

/** Runs `work` on the configured database, migrated to the latest schema. */
async function withServices(config: Config, work: (services: Services) => Promise<string>): Promise<string> {
  const { db } = openDatabase(config);
  try {
    await migrateToLatest(db);
    return await work(await createServices(config, db, pino({ level: 'warn' })));
  } finally {
    await db.destroy();
  }
}

function turnOffTwoStep(config: Config, email: string): Promise<string> {
  return withServices(config, async (services) => {
    const user = await services.accounts.accountByEmail(email);
    const { wasOn } = await services.authenticatorApps.turnOff(user, 'administrator');
    if (wasOn) await services.audit.record({ kind: 'two-step-off', userId: user.id }, FROM_THE_COMMAND_LINE);
    return wasOn ? `two-step sign-in of ${email} turned off; the password alone signs in` : `two-step sign-in of ${email} was already off`;
  });
}

async function backup(target: string | undefined): Promise<string> {
  if (!target) throw new UsageError('backup needs --to FILE');
  const config = loadConfig(process.env);
  if (config.databaseUrl) throw new UsageError('DATABASE_URL is PostgreSQL: back it up with pg_dump (see the README)');
  if (existsSync(target)) throw new UsageError(`${target} exists already; choose a new file`);
  await existingDatabase(config);
  try {
    const pages = await backupSqlite(sqliteFile(config.dataDir), target);
    return `backed up ${pages} pages to ${target}`;
  } catch (error) {
    // A system or SQLite error here is about the target: a directory that cannot be written, a full disk.
    if (typeof (error as { code?: unknown }).code !== 'string') throw error;
    throw new OperatorError(`cannot back up to ${target}: ${(error as Error).message}`);
  }
}

function rotateKeys(config: Config): Promise<string> {
  return withServices(config, async (services) => {
    const keepSeconds = services.config.accessTokenTtl + 24 * 60 * 60;
    const kids = [];
    let signsFrom = 0;
    for (const alg of SIGNING_ALGS) {
      const rotated = await services.keys.rotate(alg, keepSeconds);
      kids.push(`${alg} ${rotated.kid}`);
      signsFrom = rotated.signsFrom;
    }
    const keep = `${Math.floor(keepSeconds / 3600)} h${keepSeconds % 3600 >= 60 ? ` ${Math.floor((keepSeconds % 3600) / 60)} min` : ''}`;
    return `new signing keys: ${kids.join(', ')}, published now, signing from ${new Date(signsFrom).toISOString()}; the old ones stay published for ${keep} after that`;
  });
}

function replaceKeys(config: Config): Promise<string> {
  return withServices(config, async (services) => {
    const made = await services.keys.replaceAll();
    return `new signing keys: ${made.map(({ alg, kid }) => `${alg} ${kid}`).join(', ')}, signing now; the old ones are deleted, and nothing they signed is accepted (a running server goes on signing with them until it reloads its keys, within a minute: restart it to end that at once)`;
  });
}

/** What the operator can put right (exit 2); anything else is a failure of Home Guard (exit 1). */
function isOperatorMistake(error: unknown): boolean {
  if (error instanceof OperatorError || error instanceof ConfigError || error instanceof AppError || error instanceof DatabaseProblem) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

run(process.argv.slice(2)).then(
  (message) => {
    process.stdout.write(`${message}\n`);
  },
  (error: unknown) => {
    const known = isOperatorMistake(error);
    process.stderr.write(`home-guard admin: ${known ? (error as Error).message : `failed: ${String(error)}`}\n`);
    if (error instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
    process.exitCode = known ? 2 : 1;
  },
);
