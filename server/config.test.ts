import { describe, expect, it } from 'vitest';
import { ConfigError, insecureSettings, loadConfig } from './config';

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

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['ACCESS_TOKEN_TTL', '-5'],
    ['AUDIT_LOG_DAYS', '0'],
    ['AUDIT_LOG_DAYS', '1.5'],
    ['AUDIT_LOG_DAYS', '3651'],
    ['REGISTRATION', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['SMTP_URL', 'http://mail'],
    ['SMTP_URL', 'smtp://[mail'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    try {
      loadConfig({ [name]: value });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message.startsWith(`${name}: `)).toBe(true);
      expect(message).not.toContain('\n');
    }
  });

  it('reads secrets from *_FILE variables and treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
    expect(() => loadConfig({ DATABASE_URL_FILE: '/nonexistent/secret' })).toThrow(/DATABASE_URL_FILE/);
  });

  it('warns about plain http on a non-local public URL only', () => {
    expect(insecureSettings(loadConfig({ PUBLIC_URL: 'http://sso.home.lan' }))).toHaveLength(1);
    expect(insecureSettings(loadConfig({ PUBLIC_URL: 'https://sso.home.lan/' }))).toHaveLength(0);
    expect(insecureSettings(loadConfig({}))).toHaveLength(0);
    expect(loadConfig({ PUBLIC_URL: 'https://sso.home.lan/' }).publicUrl).toBe('https://sso.home.lan');
  });
});
