import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const DAY = 24 * 60 * 60;

const seconds = (fallback: number) =>
  z.coerce.number({ error: 'must be a whole number of seconds' }).int('must be a whole number of seconds').positive('must be positive').default(fallback);

const days = (fallback: number, max: number) => {
  const message = `must be a whole number of days from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).default(fallback);
};

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int('must be a port number').min(0, 'must be a port number').max(65535, 'must be a port number').default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres|postgresql):\/\//, 'must be a postgres:// URL (leave it unset for the embedded SQLite database)')
    .optional(),
  // Checked whole here: the mailer is only built when the first mail goes out.
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').refine((url) => URL.canParse(url), 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).default('Home Guard <no-reply@localhost>'),
  ACCESS_TOKEN_TTL: seconds(900),
  REFRESH_TOKEN_TTL: seconds(30 * DAY),
  SESSION_MAX_AGE: seconds(30 * DAY),
  AUDIT_LOG_DAYS: days(90, 3650),
  REGISTRATION: z.enum(['open', 'closed'], { error: 'must be open or closed' }).default('open'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9a-fA-F.:/, ]+)$/, 'must be true, false or a comma-separated list of proxy addresses')
    .default('false'),
  STATIC_DIR: z.string().optional(),
  METRICS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
});

/** Fastify's trustProxy from TRUST_PROXY: whether X-Forwarded-For names the client. */
function trustProxy(value: string): boolean | string {
  return value === 'true' || value === 'false' ? value === 'true' : value;
}

export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  /** A sign-in ends this long after it began, however much it is used (ASVS V3.3.2). */
  sessionMaxAge: number;
  /** Audit events older than this many days are pruned. */
  auditLogDays: number;
  registration: 'open' | 'closed';
  logLevel: string;
  trustProxy: boolean | string;
  /** Serve Prometheus metrics at /metrics. */
  metrics: boolean;
  /** Where the built PWA lives; undefined serves no pages (API only). */
  staticDir: string | undefined;
};

export class ConfigError extends Error {}

/** Secrets may come from files (Docker secrets): `NAME_FILE=/run/secrets/x` stands for `NAME`. */
function resolveFileVariables(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const resolved: Record<string, string | undefined> = { ...env };
  for (const name of ['DATABASE_URL', 'SMTP_URL']) {
    const file = env[`${name}_FILE`];
    if (file && !env[name]) {
      try {
        resolved[name] = readFileSync(file, 'utf8').trim();
      } catch {
        throw new ConfigError(`${name}_FILE: cannot read ${file}`);
      }
    }
  }
  // An empty variable means "not set", as in most .env files.
  for (const [key, value] of Object.entries(resolved)) if (value === '') delete resolved[key];
  return resolved;
}

/** Reads the configuration; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaultStaticDir?: string): Config {
  const parsed = envSchema.safeParse(resolveFileVariables(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`${name}: ${issue.message} (got ${JSON.stringify(env[name] ?? '')})`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    sessionMaxAge: e.SESSION_MAX_AGE,
    auditLogDays: e.AUDIT_LOG_DAYS,
    registration: e.REGISTRATION,
    logLevel: e.LOG_LEVEL,
    trustProxy: trustProxy(e.TRUST_PROXY),
    metrics: e.METRICS === 'true',
    staticDir: e.STATIC_DIR ? path.resolve(e.STATIC_DIR) : defaultStaticDir,
  };
}

/** Settings that work but are unsafe outside a test bench; the server logs each at start. */
export function insecureSettings(config: Config): string[] {
  const warnings: string[] = [];
  const url = new URL(config.publicUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && !local) {
    warnings.push(`PUBLIC_URL ${config.publicUrl} is plain http: tokens and passwords cross the network unencrypted; put Home Guard behind TLS`);
  }
  return warnings;
}
