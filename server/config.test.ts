import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, insecureSettings, loadConfig } from './config';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'hg-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A file in the scratch directory holding `content`; returns its path. */
function fileWith(name: string, content: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, content);
  return file;
}

/** The one line loadConfig refuses `env` with. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  return expect.unreachable(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:8080',
      databaseUrl: undefined,
      accessTokenTtl: 900,
      refreshTokenTtl: 30 * 24 * 3600,
      sessionMaxAge: 30 * 24 * 3600,
      auditLogDays: 90,
      registration: 'open',
      trustProxy: false,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  // What each setting must be, as its refusal says it.
  const rule = {
    port: 'must be a whole number from 1 to 65535',
    httpUrl: 'must be an http(s) URL',
    postgresUrl: 'must be a postgres:// URL (leave it unset for the embedded SQLite database)',
    secondsUpToAWeek: 'must be a whole number of seconds from 1 to 604800 (a week)',
    secondsUpTo400Days: 'must be a whole number of seconds from 1 to 34560000 (400 days)',
    days: 'must be a whole number of days from 1 to 3650',
    wait: 'must be a whole number of seconds from 0 to 600 (10 minutes)',
    smtpUrl: 'must be an smtp:// or smtps:// URL',
    encoded: 'cannot be read as intended: percent-encode any # ? or / in the password (as %23, %3F, %2F)',
    address: 'must be an address, alone or as Name <address>',
  };
  it.each([
    ['PORT', 'abc', rule.port],
    ['PORT', '70000', rule.port],
    ['PORT', '0', rule.port],
    ['PORT', ' ', rule.port],
    ['PORT', '0x50', rule.port],
    ['PORT', '1e3', rule.port],
    ['PORT', '80.0', rule.port],
    ['PUBLIC_URL', 'not a url', rule.httpUrl],
    ['PUBLIC_URL', 'ftp://id.example.com', rule.httpUrl],
    ['PUBLIC_URL', 'x-https://id.example.com', rule.httpUrl],
    ['DATABASE_URL', 'mysql://x', rule.postgresUrl],
    ['DATABASE_URL', 'x-postgres://db.lan/guard', rule.postgresUrl],
    ['ACCESS_TOKEN_TTL', '-5', rule.secondsUpToAWeek],
    ['ACCESS_TOKEN_TTL', '900000', rule.secondsUpToAWeek], // milliseconds by mistake: ten days
    ['REFRESH_TOKEN_TTL', '2592000000', rule.secondsUpTo400Days],
    ['SESSION_MAX_AGE', '34560001', rule.secondsUpTo400Days],
    ['AUDIT_LOG_DAYS', '0', rule.days],
    ['AUDIT_LOG_DAYS', '1.5', rule.days],
    ['AUDIT_LOG_DAYS', '3651', rule.days],
    ['DATABASE_WAIT', '-1', rule.wait],
    ['DATABASE_WAIT', '601', rule.wait],
    ['DATABASE_WAIT', '60s', rule.wait],
    ['REGISTRATION', 'maybe', 'must be open or closed'],
    ['LOG_LEVEL', 'loud', 'must be one of fatal, error, warn, info, debug, trace, silent'],
    ['METRICS', 'yes', 'must be true or false'],
    ['SMTP_URL', 'http://mail', rule.smtpUrl],
    ['SMTP_URL', 'x-smtp://mail.lan', rule.smtpUrl],
    ['SMTP_URL', 'smtp://[mail', rule.smtpUrl],
    ['SMTP_URL', 'smtp://', 'must name the mail server, e.g. smtp://mail.example:587'],
    ['SMTP_URL', 'smtps://user:pw@', rule.smtpUrl],
    ['SMTP_URL', 'smtp://me:p@ss#word@mail.example:587', rule.encoded], // the server would be "ss"
    ['SMTP_URL', 'smtp://me:p@ss?word@mail.example:587', rule.encoded],
    ['SMTP_URL', 'smtp://me:p@ss/word@mail.example:587', rule.encoded],
    ['ACCESS_TOKEN_TTL', '0x10', rule.secondsUpToAWeek], // Number() reads these as 16 and 1000
    ['REFRESH_TOKEN_TTL', '3e6', rule.secondsUpTo400Days],
    ['AUDIT_LOG_DAYS', ' ', rule.days],
    ['DATABASE_WAIT', '0x1', rule.wait],
    ['MAIL_FROM', 'notanemail', rule.address],
    ['MAIL_FROM', 'Home Guard', rule.address],
    ['MAIL_FROM', 'Home Guard <no-reply>', rule.address],
    ['MAIL_FROM', 'Home Guard\nBcc: x@evil.example <guard@home.lan>', rule.address],
    ['MAIL_FROM', 'guard@home.lan and more', rule.address],
    ['TRUST_PROXY', 'yes', 'yes is not an IP address or CIDR range'],
    ['TRUST_PROXY', 'untrue', 'untrue is not an IP address or CIDR range'],
  ])('refuses %s=%s with one line naming the variable and saying what it must be', (name, value, rule) => {
    // What was read follows in quotes, masked where it may hold a password (tested below).
    const refused = refusal({ [name]: value });
    expect(refused.startsWith(`${name}: ${rule} (got "`) && refused.endsWith('")'), refused).toBe(true);
  });

  it('takes the words of TRUST_PROXY, REGISTRATION, LOG_LEVEL and METRICS in any case, as people type them', () => {
    expect(loadConfig({ TRUST_PROXY: 'TRUE', REGISTRATION: 'Closed', LOG_LEVEL: 'INFO', METRICS: 'True' })).toMatchObject({ trustProxy: true, registration: 'closed', logLevel: 'info', metrics: true });
    expect(loadConfig({ TRUST_PROXY: 'False ' }).trustProxy).toBe(false);
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
    expect(loadConfig({ REGISTRATION: 'open', METRICS: 'false' })).toMatchObject({ registration: 'open', metrics: false });
  });

  it('refuses sessions no longer than their access tokens, which would end under someone using the app', () => {
    expect(refusal({ ACCESS_TOKEN_TTL: '3600', REFRESH_TOKEN_TTL: '1800' })).toBe('REFRESH_TOKEN_TTL: must be longer than ACCESS_TOKEN_TTL (3600 s), or people using the app are signed out as their access token runs out (got 1800)');
    expect(refusal({ ACCESS_TOKEN_TTL: '900', REFRESH_TOKEN_TTL: '900' })).toMatch(/^REFRESH_TOKEN_TTL: /);
    expect(refusal({ ACCESS_TOKEN_TTL: '900', SESSION_MAX_AGE: '60' })).toBe('SESSION_MAX_AGE: must be longer than ACCESS_TOKEN_TTL (900 s), or every sign-in ends before its first access token runs out (got 60)');
    expect(loadConfig({ ACCESS_TOKEN_TTL: '900', REFRESH_TOKEN_TTL: '1800' }).refreshTokenTtl).toBe(1800);
  });

  it('waits 60 s for PostgreSQL at start unless told, and not at all with DATABASE_WAIT=0', () => {
    expect(loadConfig({}).databaseWaitSeconds).toBe(60);
    expect(loadConfig({ DATABASE_WAIT: '0' }).databaseWaitSeconds).toBe(0);
    expect(refusal({ DATABASE_WAIT: '60000' })).toBe('DATABASE_WAIT: must be a whole number of seconds from 0 to 600 (10 minutes) (got "60000")');
  });

  it('takes a sender as an address, alone or with a name', () => {
    for (const from of ['guard@home.lan', 'Home Guard <guard@home.lan>', '"Guard, Home" <guard@home.lan>']) expect(loadConfig({ MAIL_FROM: from }).mailFrom).toBe(from);
  });

  it('takes a PORT from 1 to 65535 and reads an empty one as unset', () => {
    expect(loadConfig({ PORT: '1' }).port).toBe(1);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    expect(loadConfig({ PORT: '' }).port).toBe(8080);
    expect(refusal({ PORT: '0' })).toMatch(/^PORT: must be a whole number from 1 to 65535/);
  });

  it('warns about plain http on a non-local public URL only', () => {
    expect(insecureSettings(loadConfig({ PUBLIC_URL: 'http://sso.home.lan' }))).toHaveLength(1);
    expect(insecureSettings(loadConfig({ PUBLIC_URL: 'https://sso.home.lan/' }))).toHaveLength(0);
    expect(insecureSettings(loadConfig({}))).toHaveLength(0);
    // Mailing from localhost: providers refuse the sender (no SPF, DKIM or MX), and the mail is lost.
    expect(insecureSettings(loadConfig({ SMTP_URL: 'smtp://mail.example:587' }))).toEqual([
      'MAIL_FROM Home Guard <no-reply@localhost> is not an address of a domain mail providers take mail from: relays and mailboxes refuse or file as spam a sender at localhost; set MAIL_FROM to an address of your own domain',
    ]);
    expect(insecureSettings(loadConfig({ SMTP_URL: 'smtp://mail.example:587', MAIL_FROM: 'guard@home.example' }))).toEqual([]);
  });
});

describe('secrets from *_FILE variables', () => {
  it('reads the value from the file', () => {
    const url = 'postgres://hg:pw@db:5432/hg';
    expect(loadConfig({ DATABASE_URL_FILE: fileWith('db-url', `${url}\n`) }).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: '', DATABASE_URL_FILE: fileWith('db-url', url) }).databaseUrl).toBe(url);
    expect(loadConfig({ SMTP_URL_FILE: fileWith('smtp-url', 'smtp://mail:25') }).smtpUrl).toBe('smtp://mail:25');
    expect(refusal({ DATABASE_URL_FILE: '/nonexistent/secret' })).toMatch(/^DATABASE_URL_FILE: /);
  });

  it.each(['DATABASE_URL', 'SMTP_URL'])('refuses %s and its _FILE both set', (name) => {
    const value = name === 'SMTP_URL' ? 'smtp://mail:25' : 'postgres://hg:pw@db:5432/hg';
    expect(refusal({ [name]: value, [`${name}_FILE`]: fileWith('both', value) })).toBe(`${name} and ${name}_FILE are both set; keep one`);
  });

  // An unmounted secret must not start the server on a new, empty SQLite database.
  it.each(['DATABASE_URL', 'SMTP_URL'])('refuses an empty %s_FILE', (name) => {
    for (const content of ['', ' \n']) {
      const file = fileWith(`${name}-empty`, content);
      expect(refusal({ [`${name}_FILE`]: file })).toBe(`${name}_FILE: ${file} is empty`);
    }
    expect(refusal({ [`${name}_FILE`]: '' })).toMatch(new RegExp(`^${name}_FILE: is set but empty`));
  });

  it('refuses a DATABASE_URL pg cannot read, saying what to encode; takes a socket directory and an @ in the password', () => {
    for (const url of ['postgres://hg:S3cret#Pass@db/hg', 'postgres://hg:S3cret?Pass@db/hg', 'postgres://hg:S3cret/Pass@db/hg']) {
      expect(refusal({ DATABASE_URL: url }), url).toMatch(/^DATABASE_URL: cannot be read as a URL: percent-encode any # \? or \/ in the password \(as %23, %3F, %2F\)/);
    }
    for (const url of ['postgres://hg@/hg?host=/run/postgresql', 'postgres://hg:S3cret@Pass@db/hg', 'postgres://hg:S3cret%23Pass@db/hg']) expect(loadConfig({ DATABASE_URL: url }).databaseUrl, url).toBe(url);
  });

  it('refuses a DATABASE_URL that is set but empty, saying how to get either database', () => {
    for (const value of ['', '  ']) {
      expect(refusal({ DATABASE_URL: value })).toBe('DATABASE_URL: is set but empty; remove it to use the embedded SQLite database, or set a postgres:// URL');
    }
  });
});

describe('secrets in error messages', () => {
  it.each([
    ['DATABASE_URL', 'postgress://hg:S3cretPass@db:5432/hg', 'postgress://hg:***@db:5432/hg'],
    ['DATABASE_URL', 'hg:S3cretPass@db:5432/hg', 'hg:***@db:5432/hg'],
    ['DATABASE_URL', 'postgres://hg:S3cret#Pass@db:5432/hg', 'postgres://hg:***@db:5432/hg'],
    ['DATABASE_URL', 'postgress://hg@db/hg?password=S3cretPass', 'postgress://hg@db/hg?password=***'],
    ['SMTP_URL', 'http://mailer:S3cretPass@mail:587', 'http://mailer:***@mail:587'],
    ['SMTP_URL', 'smtp://mailer:S3cret@Pass@[mail', 'smtp://mailer:***@[mail'],
    // No password: nothing to hide, and the user name and scheme stay as they were.
    ['DATABASE_URL', 'mysql://root@127.0.0.1/x', 'mysql://root@127.0.0.1/x'],
    ['PUBLIC_URL', 'https://admin:S3cretPass@id.example.com', 'https://admin:***@id.example.com'],
  ])('masks the password of %s=%s', (name, value, shown) => {
    const message = refusal({ [name]: value });
    expect(message).not.toContain('S3cret');
    expect(message).toContain(`(got "${shown}")`);
  });

  it('quotes what was read from a *_FILE, masked, and names the file', () => {
    const file = fileWith('typo-url', 'postgress://hg:FilePass@db/hg\n');
    const message = refusal({ DATABASE_URL_FILE: file });
    expect(message).toMatch(/^DATABASE_URL: /);
    expect(message).toContain(`(got "postgress://hg:***@db/hg" from DATABASE_URL_FILE ${file})`);
    expect(message).not.toContain('FilePass');
  });
});

describe('PUBLIC_URL, the OIDC issuer', () => {
  it.each([
    ['HTTPS://ID.Example.COM:443/', 'https://id.example.com'],
    ['http://localhost:80', 'http://localhost'],
    ['http://[::1]:8080/', 'http://[::1]:8080'],
    ['https://sso.home.lan', 'https://sso.home.lan'],
  ])('writes %s in the one form relying parties compare: %s', (value, issuer) => {
    expect(loadConfig({ PUBLIC_URL: value }).publicUrl).toBe(issuer);
  });

  it('gives the default its canonical form too', () => {
    expect(loadConfig({ PORT: '80' }).publicUrl).toBe('http://localhost');
  });

  it.each([
    ['https://id.example.com/?tenant=1', 'must not have a query or fragment'],
    ['https://id.example.com?', 'must not have a query or fragment'],
    ['https://id.example.com/#top', 'must not have a query or fragment'],
    ['https://admin:pw@id.example.com', 'must not hold a user name or password'],
    ['https://@id.example.com', 'must not hold a user name or password'],
    ['https://id.example.com/sso', 'must be the origin only, e.g. https://id.example.com; Home Guard is not served under a path'],
    ['https://id.example.com/sso/', 'must be the origin only'],
  ])('refuses %s', (value, problem) => {
    expect(refusal({ PUBLIC_URL: value })).toMatch(new RegExp(`^PUBLIC_URL: ${problem.replace(/[.?]/g, '\\$&')}`));
  });
});

describe('TRUST_PROXY', () => {
  it('takes true, false, or addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1,192.168.1.1/32,fd00::/8' }).trustProxy).toBe('10.0.0.0/8,::1,192.168.1.1/32,fd00::/8');
  });

  it.each([
    ['1', '1 is not an address: TRUST_PROXY takes the proxies\' addresses or CIDR ranges'],
    ['10.0.0.1,2', '2 is not an address'],
    ['010.0.0.1', '010.0.0.1 has a leading zero'],
    ['10.0.0.1/99', '10.0.0.1/99: the prefix length must be a number from 1 to 32'],
    ['::1/129', '::1/129: the prefix length must be a number from 1 to 128'],
    ['10.0.0.0/0', '10.0.0.0/0: the prefix length must be a number from 1 to 32'],
    ['10.0.0.0/255.0.0.0', '10.0.0.0/255.0.0.0: the prefix length must be a number from 1 to 32'],
    ['10.0.0.0/8/8', '10.0.0.0/8/8: the prefix length must be a number'],
    [',,,', 'has an empty entry'],
    ['10.0.0.1,', 'has an empty entry'],
    ['::::', '\\:\\:\\:\\: is not an IP address'],
    ['true,10.0.0.1', 'true is not an IP address'],
  ])('refuses %s', (value, problem) => {
    expect(refusal({ TRUST_PROXY: value })).toMatch(new RegExp(`^TRUST_PROXY: ${problem.replace(/[.?/]/g, '\\$&')}`));
  });

  it('warns that TRUST_PROXY=true lets a client forge X-Forwarded-For', () => {
    const [warning, ...others] = insecureSettings(loadConfig({ TRUST_PROXY: 'true', PUBLIC_URL: 'https://id.example.com' }));
    expect(others).toEqual([]);
    expect(warning).toMatch(/^TRUST_PROXY=true trusts every hop of X-Forwarded-For, including ones the client writes/);
    expect(insecureSettings(loadConfig({ TRUST_PROXY: '10.0.0.1', PUBLIC_URL: 'https://id.example.com' }))).toEqual([]);
  });
});

describe('STATIC_DIR', () => {
  const built = path.join(scratch, 'built');
  mkdirSync(built);
  writeFileSync(path.join(built, 'index.html'), '<!doctype html>');
  const notBuilt = path.join(scratch, 'not-built');
  mkdirSync(notBuilt);
  writeFileSync(path.join(notBuilt, 'favicon.ico'), '');
  const empty = path.join(scratch, 'empty');
  mkdirSync(empty);

  it('serves a built web app, and only the API from an empty directory', () => {
    expect(loadConfig({ STATIC_DIR: built }).staticDir).toBe(built);
    expect(loadConfig({ STATIC_DIR: empty }).staticDir).toBe(empty);
  });

  it('refuses a directory that is missing or holds something other than the web app', () => {
    expect(refusal({ STATIC_DIR: path.join(scratch, 'dsit') })).toBe(`STATIC_DIR: ${path.join(scratch, 'dsit')} is not a directory (got "${path.join(scratch, 'dsit')}")`);
    expect(refusal({ STATIC_DIR: path.join(built, 'index.html') })).toMatch(/^STATIC_DIR: .* is not a directory/);
    expect(refusal({ STATIC_DIR: notBuilt })).toMatch(/^STATIC_DIR: .* has no index\.html/);
  });

  it('leaves a missing default to the server, which warns and serves the API only', () => {
    const missingDefault = path.join(scratch, 'no-dist');
    expect(loadConfig({}, missingDefault).staticDir).toBe(missingDefault);
    expect(loadConfig({ STATIC_DIR: missingDefault }, missingDefault).staticDir).toBe(missingDefault);
  });
});
