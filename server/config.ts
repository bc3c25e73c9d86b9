import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { maskedUrl } from './masked-url';

const DAY = 24 * 60 * 60;

/** A whole number from `min` to `max`, in digits: Number() would also take 0x10, 1e3 and a blank. */
const wholeNumber = (fallback: number, min: number, max: number, message: string) =>
  z.string().trim().regex(/^\d+$/, message).transform(Number).pipe(z.number().min(min, message).max(max, message)).default(fallback);

/** A lifetime in seconds, up to `max`: a value given in milliseconds by mistake is refused, not read as weeks. */
const seconds = (fallback: number, max: number, maxInWords: string) => wholeNumber(fallback, 1, max, `must be a whole number of seconds from 1 to ${max} (${maxInWords})`);

/** One of `words`, in any case: LOG_LEVEL=INFO was refused. */
const word = <const Words extends readonly [string, ...string[]]>(words: Words, message: string) => z.string().trim().toLowerCase().pipe(z.enum(words, { error: message }));

const days = (fallback: number, max: number) => wholeNumber(fallback, 1, max, `must be a whole number of days from 1 to ${max}`);

/** A setting that `problem` checks (a sentence saying what is wrong, or undefined) before `toValue` reads it. */
function setting<T>(problem: (value: string) => string | undefined, toValue: (value: string) => T) {
  return z.string().transform((value, ctx) => {
    const wrong = problem(value);
    if (wrong === undefined) return toValue(value);
    ctx.addIssue({ code: 'custom', message: wrong });
    return z.NEVER;
  });
}

// Digits only: Number() would also take 0x50, 1e3 and a blank (port 0, a random port).
const portProblem = (value: string) => (/^\d+$/.test(value.trim()) && Number(value) >= 1 && Number(value) <= 65535 ? undefined : 'must be a whole number from 1 to 65535');

/** Why PUBLIC_URL cannot be the OIDC issuer, if it cannot (OIDC Discovery §2: no query, no fragment, no user info). */
function publicUrlProblem(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return 'must be an http(s) URL';
  const authority = value.replace(/^https?:\/\//i, '').split(/[/\\?#]/)[0]!;
  if (authority.includes('@')) return 'must not hold a user name or password (the issuer has none)';
  if (/[?#]/.test(value)) return 'must not have a query or fragment (the issuer has none)';
  if (new URL(value).pathname !== '/') return 'must be the origin only, e.g. https://id.example.com; Home Guard is not served under a path';
  return undefined;
}

/** What is wrong with one TRUST_PROXY entry, an address or a CIDR range, if anything. */
function proxyEntryProblem(entry: string): string | undefined {
  if (entry === '') return 'has an empty entry; separate the addresses with single commas';
  if (/^\d+$/.test(entry)) return `${entry} is not an address: TRUST_PROXY takes the proxies' addresses or CIDR ranges (e.g. 172.18.0.2 or 10.0.0.0/8), or true, not a hop count`;
  const [address, prefix, ...rest] = entry.split('/') as [string, string?, ...string[]];
  const version = isIP(address);
  if (version === 0) {
    // proxy-addr would read 010.0.0.1 as octal, 8.0.0.1.
    if (isIP(address.replace(/(^|[.:])0+(?=\d)/g, '$1'))) return `${entry} has a leading zero, which is read as octal; write each number without one`;
    return `${entry} is not an IP address or CIDR range`;
  }
  const max = version === 4 ? 32 : 128;
  if (prefix !== undefined && (rest.length > 0 || !/^\d+$/.test(prefix) || Number(prefix) < 1 || Number(prefix) > max)) {
    return `${entry}: the prefix length must be a number from 1 to ${max}`;
  }
  return undefined;
}

const proxyEntries = (value: string) => value.split(',').map((entry) => entry.trim());

/** true or false in any case (TRUE, False), as the words people type; undefined for anything else. */
const yesOrNo = (value: string) => (/^(true|false)$/i.test(value.trim()) ? value.trim().toLowerCase() === 'true' : undefined);

function trustProxyProblem(value: string): string | undefined {
  if (yesOrNo(value) !== undefined) return undefined;
  for (const entry of proxyEntries(value)) {
    const problem = proxyEntryProblem(entry);
    if (problem) return problem;
  }
  return undefined;
}

/** Fastify's trustProxy from TRUST_PROXY: whether X-Forwarded-For names the client. */
function trustProxy(value: string): boolean | string {
  return yesOrNo(value) ?? proxyEntries(value).join(',');
}

/** Why an explicitly set STATIC_DIR cannot be served, if it cannot. */
function staticDirProblem(value: string, defaultStaticDir: string | undefined): string | undefined {
  const dir = path.resolve(value);
  // The default dist/ is built at start when missing (main.ts), named or not.
  if (dir === defaultStaticDir) return undefined;
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return `${dir} is not a directory`;
  if (existsSync(path.join(dir, 'index.html'))) return undefined;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return `${dir} cannot be read`;
  }
  // An empty directory is how a server is told to serve the API only (the test and bench servers do).
  return entries.length === 0 ? undefined : `${dir} has no index.html: point it at the built web app (\`npm run build\` writes dist/), or leave it unset`;
}

const envSchema = (defaultStaticDir: string | undefined) =>
  z.object({
    PORT: setting(portProblem, Number).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: setting(publicUrlProblem, (value) => new URL(value).origin).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^(postgres|postgresql):\/\//, 'must be a postgres:// URL (leave it unset for the embedded SQLite database)')
      // As pg reads it (pg-connection-string): a socket directory's form, postgres://user@/db?host=…, has no host.
      .refine((value) => URL.canParse(value.replace('@/', '@localhost/')), 'cannot be read as a URL: percent-encode any # ? or / in the password (as %23, %3F, %2F)')
      .optional(),
    // Checked whole here: the mailer is only built when the first mail goes out.
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .refine((url) => URL.canParse(url), 'must be an smtp:// or smtps:// URL')
      .refine((url) => !URL.canParse(url) || new URL(url).hostname !== '', 'must name the mail server, e.g. smtp://mail.example:587')
      // A # ? or / in the password ends the host there: smtp://me:p@ss#word@mail read as server "ss".
      .refine((url) => !URL.canParse(url) || !/[#@]/.test(`${new URL(url).pathname}${new URL(url).search}${new URL(url).hash}`), 'cannot be read as intended: percent-encode any # ? or / in the password (as %23, %3F, %2F)')
      .optional(),
    // A sender the relay takes: "Name <address>" or the address alone, on one line (it is a header).
    MAIL_FROM: z
      .string()
      .regex(/^(?:[^<>@\u0000-\u001F\u007F]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, 'must be an address, alone or as Name <address>')
      .default('Home Guard <no-reply@localhost>'),
    ACCESS_TOKEN_TTL: seconds(900, 7 * DAY, 'a week'),
    REFRESH_TOKEN_TTL: seconds(30 * DAY, 400 * DAY, '400 days'),
    SESSION_MAX_AGE: seconds(30 * DAY, 400 * DAY, '400 days'),
    AUDIT_LOG_DAYS: days(90, 3650),
    DATABASE_WAIT: wholeNumber(60, 0, 600, 'must be a whole number of seconds from 0 to 600 (10 minutes)'),
    REGISTRATION: word(['open', 'closed'], 'must be open or closed').default('open'),
    LOG_LEVEL: word(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be one of fatal, error, warn, info, debug, trace, silent').default('info'),
    TRUST_PROXY: setting(trustProxyProblem, trustProxy).default(false),
    STATIC_DIR: setting((value) => staticDirProblem(value, defaultStaticDir), (value) => path.resolve(value)).optional(),
    METRICS: word(['true', 'false'], 'must be true or false').default('false'),
  });

export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** At start, how long PostgreSQL may go on refusing connections (it may be starting too) before the server gives up. */
  databaseWaitSeconds: number;
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

const SECRET_FILE_VARIABLES = ['DATABASE_URL', 'SMTP_URL'];

type ResolvedEnv = {
  values: Record<string, string | undefined>;
  /** The file each value read from a *_FILE came from. */
  files: Record<string, string>;
};

/** Secrets may come from files (Docker secrets): `NAME_FILE=/run/secrets/x` stands for `NAME`. */
function resolveFileVariables(env: NodeJS.ProcessEnv): ResolvedEnv {
  const values: Record<string, string | undefined> = { ...env };
  const files: Record<string, string> = {};
  for (const name of SECRET_FILE_VARIABLES) {
    const file = env[`${name}_FILE`];
    if (file === undefined) continue;
    // Which one the operator meant cannot be known: the official database images refuse both too.
    if (env[name]?.trim()) throw new ConfigError(`${name} and ${name}_FILE are both set; keep one`);
    // An unmounted secret must stop the server, not start it without the secret.
    if (file.trim() === '') throw new ConfigError(`${name}_FILE: is set but empty; give the path of the file holding ${name}, or remove it`);
    try {
      values[name] = readFileSync(file, 'utf8').trim();
    } catch {
      throw new ConfigError(`${name}_FILE: cannot read ${file}`);
    }
    if (values[name] === '') throw new ConfigError(`${name}_FILE: ${file} is empty`);
    files[name] = file;
  }
  // Not "unset": that would quietly open a new, empty SQLite database, where the first person to register becomes administrator.
  if (values.DATABASE_URL !== undefined && values.DATABASE_URL.trim() === '') {
    throw new ConfigError('DATABASE_URL: is set but empty; remove it to use the embedded SQLite database, or set a postgres:// URL');
  }
  // Any other empty variable means "not set", as in most .env files.
  for (const [key, value] of Object.entries(values)) if (value === '') delete values[key];
  return { values, files };
}

/** Reads the configuration; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaultStaticDir?: string): Config {
  const { values, files } = resolveFileVariables(env);
  const parsed = envSchema(defaultStaticDir).safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const source = files[name] ? ` from ${name}_FILE ${files[name]}` : '';
    throw new ConfigError(`${name}: ${issue.message} (got ${JSON.stringify(maskedUrl(values[name] ?? ''))}${source})`);
  }
  const e = parsed.data;
  // Only a refresh moves a session's end on, and the app refreshes as its access token runs out:
  // a session no longer than that token would end under someone using it all the while.
  if (e.REFRESH_TOKEN_TTL <= e.ACCESS_TOKEN_TTL) {
    throw new ConfigError(`REFRESH_TOKEN_TTL: must be longer than ACCESS_TOKEN_TTL (${e.ACCESS_TOKEN_TTL} s), or people using the app are signed out as their access token runs out (got ${e.REFRESH_TOKEN_TTL})`);
  }
  if (e.SESSION_MAX_AGE <= e.ACCESS_TOKEN_TTL) {
    throw new ConfigError(`SESSION_MAX_AGE: must be longer than ACCESS_TOKEN_TTL (${e.ACCESS_TOKEN_TTL} s), or every sign-in ends before its first access token runs out (got ${e.SESSION_MAX_AGE})`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? new URL(`http://localhost:${e.PORT}`).origin,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseWaitSeconds: e.DATABASE_WAIT,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    sessionMaxAge: e.SESSION_MAX_AGE,
    auditLogDays: e.AUDIT_LOG_DAYS,
    registration: e.REGISTRATION,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    metrics: e.METRICS === 'true',
    staticDir: e.STATIC_DIR ?? defaultStaticDir,
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
  const senderDomain = /@([^@>\s]+)>?$/.exec(config.mailFrom)?.[1]?.toLowerCase() ?? '';
  if (config.smtpUrl && (!senderDomain.includes('.') || senderDomain.endsWith('.localhost'))) {
    warnings.push(`MAIL_FROM ${config.mailFrom} is not an address of a domain mail providers take mail from: relays and mailboxes refuse or file as spam a sender at ${senderDomain}; set MAIL_FROM to an address of your own domain`);
  }
  if (config.trustProxy === true) {
    warnings.push(
      'TRUST_PROXY=true trusts every hop of X-Forwarded-For, including ones the client writes itself: unless your proxy overwrites the header (not appends to it), anyone can choose the address Home Guard logs, throttles and bans; prefer listing the proxy\'s address',
    );
  }
  return warnings;
}
