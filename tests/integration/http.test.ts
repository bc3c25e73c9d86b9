import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCompressedTwins } from '../../scripts/vite-precompress-plugin';
import { registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'hg-static-'));
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Home Guard</title>');
  writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(staticDir, 'assets', 'index-3f2a1b.js'), 'console.log(1)');
  writeFileSync(path.join(staticDir, 'manifest.webmanifest'), '{"name":"Home Guard"}');
  // As the build leaves them: compressed twins beside the files.
  for (const file of ['index.html', 'sw.js', path.join('assets', 'index-3f2a1b.js')]) writeCompressedTwins(path.join(staticDir, file));
  t = await startTestApp({ STATIC_DIR: staticDir });
});
afterAll(async () => {
  await t.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('serving the PWA', () => {
  it('serves index.html and the service worker with no-cache, hashed assets immutable', async () => {
    const index = await t.app.inject({ url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/sw.js' })).headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/manifest.webmanifest' })).headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/assets/index-3f2a1b.js' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the precompressed twin a browser accepts, cached exactly as the file itself', async () => {
    const expected: Record<string, string> = { '/': 'no-cache', '/sw.js': 'no-cache', '/auth/login': 'no-cache', '/assets/index-3f2a1b.js': 'public, max-age=31536000, immutable' };
    for (const [url, cacheControl] of Object.entries(expected)) {
      const answer = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(answer.headers['content-encoding'], url).toBe('br');
      expect(answer.headers['cache-control'], url).toBe(cacheControl);
      expect(answer.headers.vary, url).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(answer.rawPayload).length, url).toBeGreaterThan(0);
    }
    expect((await t.app.inject({ url: '/sw.js', headers: { 'accept-encoding': 'gzip' } })).headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ url: '/sw.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('addEventListener');
  });

  it('falls back to index.html for unknown page paths so the app shows its own 404', async () => {
    for (const url of ['/personal-info', '/admin/users/view/42', '/nope?x=1']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<title>Home Guard</title>');
      expect([page.headers['cache-control'], page.headers['content-type']], url).toEqual(['no-cache', 'text/html; charset=utf-8']);
      // HEAD, as a link checker or an uptime monitor asks: the page's answer without its body.
      const head = await t.app.inject({ method: 'HEAD', url });
      expect([head.statusCode, head.headers['content-type'], head.body], url).toEqual([200, 'text/html; charset=utf-8', '']);
    }
  });

  it('answers a built file that is not there with a 404, not the page in its place', async () => {
    // A tab opened before a release asks for the old version's code; the page would be taken for it.
    const gone = await t.app.inject({ url: '/assets/AuditLogPage-0ld0ld.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'file not found' });
    expect((await t.app.inject({ url: '/assets/index-3f2a1b.js' })).statusCode).toBe(200);
  });

  it('answers unknown API paths with a JSON 404, for every method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const answer = await t.app.inject({ method, url: '/api/v1/does-not-exist' });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ error: 'API endpoint not found' });
    }
    expect((await t.app.inject({ method: 'POST', url: '/some-page' })).statusCode).toBe(404);
  });

  it('answers a known API path called with a method it does not take with 405 and the methods it takes (RFC 9110 §15.5.6)', async () => {
    const cases = [
      ['GET', '/api/v1/oauth/token', 'OPTIONS, POST'],
      ['PUT', '/api/v1/oauth/userinfo', 'GET, HEAD, OPTIONS, POST'],
      ['DELETE', '/.well-known/openid-configuration', 'GET, HEAD, OPTIONS'],
      ['POST', '/api/v1/auth/profile', 'GET, HEAD'],
      ['PATCH', '/api/v1/admin/users/0192f3a4-0000-7000-8000-000000000000', 'DELETE, GET, HEAD, PUT'],
      ['GET', '/api/v1/auth/login?next=1', 'POST'],
    ] as const;
    for (const [method, url, allow] of cases) {
      const answer = await t.app.inject({ method, url });
      expect({ url, status: answer.statusCode, allow: answer.headers.allow, body: answer.json() }).toEqual({ url, status: 405, allow, body: { error: `This address does not take ${method}; it takes ${allow}` } });
      expect(answer.headers['content-security-policy'], 'with the headers every answer has').toBeDefined();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/users/x/y/z' })).statusCode, 'a path no route has').toBe(404);
  });

  it('answers an address the router cannot read in the catalogue\'s shape, and a long id as any unknown one', async () => {
    const garbled = await t.app.inject({ url: '/api/v1/admin/users/%E0%A4%A' });
    expect({ status: garbled.statusCode, body: garbled.json() }).toEqual({ status: 400, body: { error: 'The address is not valid: it has a broken %-escape' } });
    const long = await t.app.inject({ url: `/api/v1/admin/users/${'x'.repeat(150)}` });
    expect({ status: long.statusCode, body: long.json() }).toEqual({ status: 401, body: { error: expect.any(String) } });
    // Longer than the router takes: the same answer whichever method (a GET reaches the static
    // files' catch-all instead of the route), never "this address does not take GET".
    for (const method of ['GET', 'DELETE', 'PUT'] as const) {
      const tooLong = await t.app.inject({ method, url: `/api/v1/admin/users/${'x'.repeat(1001)}` });
      expect({ status: tooLong.statusCode, body: tooLong.json() }, method).toEqual({ status: 414, body: { error: 'The address is too long: no part of it between slashes is over 1000 characters' } });
    }
  });

  it('answers a path that names no file as it could (doubled slashes, a backslash, dot segments, a name too long) as any unknown address', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    for (const url of ['//x', '/a//b', '/a%5Cb', '/auth/login/..', `/${'a'.repeat(300)}`]) {
      const page = await t.app.inject({ url });
      expect({ status: page.statusCode, body: page.body }, url).toEqual({ status: 200, body: '<!doctype html><title>Home Guard</title>' });
      expect(page.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', warned);
    // Which anyone could make the server write to stderr, once per request.
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    const api = await t.app.inject({ url: '/api//v1/auth/profile' });
    expect({ status: api.statusCode, body: api.json() }).toEqual({ status: 404, body: { error: 'API endpoint not found' } });
    const asset = await t.app.inject({ url: '/assets//index-3f2a1b.js' });
    expect({ status: asset.statusCode, body: asset.json() }).toEqual({ status: 404, body: { error: 'file not found' } });
  });

  it("serves no page under the operations endpoints: a probe set to /readyz/ is not told 200 with the app's page", async () => {
    for (const url of ['/readyz/', '/healthz/', '/metrics/', '/readyz/x']) {
      const answer = await t.app.inject({ url });
      expect({ status: answer.statusCode, body: answer.json() }, url).toEqual({ status: 404, body: { error: 'API endpoint not found' } });
    }
    const posted = await t.app.inject({ method: 'POST', url: '/healthz' });
    expect([posted.statusCode, posted.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/healthzone' })).body).toBe('<!doctype html><title>Home Guard</title>');
  });

  it('does not serve files outside the build through path traversal', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json']) {
      const answer = await t.app.inject({ url });
      expect(answer.body, url).not.toContain('"dependencies"');
    }
  });
});

describe('security headers', () => {
  it('sends a strict CSP, no framing, nosniff and no referrer on pages', async () => {
    for (const url of ['/', '/auth/login', '/auth?client_id=x']) {
      const answer = await t.app.inject({ url });
      const csp = String(answer.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      // A service may open any page of a sign-in in a popup that must keep its opener (oidc-consent.spec.ts).
      expect(answer.headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });

  it('answers API calls with the API set: nothing loaded, nothing framed, nosniff, HSTS', async () => {
    const apiPaths = ['/api/v1/auth/profile', '/.well-known/openid-configuration', '/api/v1/no-such-thing', '/api?page=1'];
    // Pictures and metrics are no pages either (and a picture says itself that it may be cached).
    for (const url of [...apiPaths, `/avatars/${'A'.repeat(32)}.webp`, '/avatars/', '/metrics', '/metrics?name=x']) {
      const answer = await t.app.inject({ url });
      expect(answer.headers['content-security-policy'], url).toBe("default-src 'none';frame-ancestors 'none'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
      // Headers that only govern documents are left out.
      expect(answer.headers['x-dns-prefetch-control']).toBeUndefined();
    }
  });

  it('keeps tokens and personal data out of caches; answers meant to be cached say so (RFC 6749 §5.1)', async () => {
    const login = await registerAndLogin(t.app);
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: login.email, password: login.password } });
    expect([again.statusCode, again.headers['cache-control']]).toEqual([200, 'no-store']);
    const profile = await t.app.inject({ url: '/api/v1/auth/profile', headers: { authorization: `Bearer ${login.access}` } });
    expect([profile.statusCode, profile.headers['cache-control']]).toEqual([200, 'no-store']);
    expect((await t.app.inject({ url: '/api/v1/no-such-thing' })).headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ url: '/.well-known/openid-configuration' })).headers['cache-control']).toBe('public, max-age=3600');
    expect((await t.app.inject({ url: '/.well-known/jwks.json' })).headers['cache-control']).toMatch(/^public, max-age=\d+$/);
  });

  it('sends the API set on refusals made before the routes, and on API paths the router decodes', async () => {
    const login = await registerAndLogin(t.app);
    const answers = {
      nul: await t.app.inject({ url: '/api/v1/auth/profile%00' }),
      brokenEscape: await t.app.inject({ url: '/api/v1/auth/%zz' }),
      // `%61` is `a`: the router takes this for /api/v1/auth/refresh and answers tokens.
      encodedRefresh: await t.app.inject({ method: 'POST', url: '/%61pi/v1/auth/refresh', headers: { authorization: `Bearer ${login.refresh}` } }),
    };
    expect(Object.values(answers).map((answer) => answer.statusCode)).toEqual([400, 400, 200]);
    expect(answers.encodedRefresh.json()).toHaveProperty('access');
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers['content-security-policy'], name).toBe("default-src 'none';frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
      expect(answer.headers['x-frame-options'], name).toBe('DENY');
      expect(answer.headers['cache-control'], name).toBe('no-store');
    }
  });

  it('does not open first-party APIs to other origins, the web app\'s OAuth calls among them', async () => {
    for (const url of ['/api/v1/auth/login', '/api/v1/oauth/code', '/api/v1/oauth/end-session']) {
      const preflight = await t.app.inject({ method: 'OPTIONS', url, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      const answer = await t.app.inject({ method: 'POST', url, headers: { origin: 'https://evil.example' }, payload: {} });
      expect([preflight.headers['access-control-allow-origin'], answer.headers['access-control-allow-origin'], answer.headers['cross-origin-resource-policy']], url).toEqual([undefined, undefined, 'same-origin']);
    }
  });
});

describe('a request Node cannot take in', () => {
  it('is answered in the API\'s shape: headers too large, bytes that are not HTTP, no Host, an unknown expectation', async () => {
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const rawAnswer = (request: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(address.port), '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk));
        socket.on('close', () => resolve(answer));
        socket.write(request);
      });
    const huge = await rawAnswer(`GET /api/v1/auth/profile HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge.slice(huge.indexOf('\r\n\r\n') + 4)).toBe('{"error":"The request headers are too large"}');
    const garbage = await rawAnswer('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage).toContain('\r\nX-Frame-Options: DENY\r\n');
    expect(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)).toBe('{"error":"The request could not be read as HTTP"}');
    // Node answered these two with a bare status line: no body, and none of the API's headers.
    const noHost = await rawAnswer('GET /api/v1/auth/profile HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(noHost.toLowerCase()).toContain('\r\nx-frame-options: deny\r\n');
    expect(noHost.slice(noHost.indexOf('\r\n\r\n') + 4)).toBe('{"error":"The request has no Host header, which HTTP/1.1 requires"}');
    const oddExpectation = await rawAnswer('POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    expect(oddExpectation).toMatch(/^HTTP\/1\.1 417 /);
    expect(oddExpectation.toLowerCase()).toContain("\r\ncontent-security-policy: default-src 'none';frame-ancestors 'none'\r\n");
    expect(oddExpectation.slice(oddExpectation.indexOf('\r\n\r\n') + 4)).toBe('{"error":"The Expect header asks for what this server does not do: it knows 100-continue alone"}');
    // HTTP/1.0 needs no Host, and is served as before.
    expect(await rawAnswer('GET /readyz HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('a request that stops arriving', () => {
  it('is answered 408 and its connection closed once the request time is up, while others are served', async () => {
    const slow = await startTestApp({}, { requestTimeoutMs: 1_000 });
    try {
      const address = new URL(await slow.app.listen({ port: 0, host: '127.0.0.1' }));
      const socket = net.connect(Number(address.port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      // Headers and a tenth of the body promised, then nothing more.
      socket.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
      const meanwhile = await fetch(new URL('/api/v1/register', address));
      expect(meanwhile.status).toBe(200);
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      // In the API's shape and with its headers, as any other refusal.
      expect(answer).toContain("\r\nContent-Security-Policy: default-src 'none';frame-ancestors 'none'\r\n");
      expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('{"error":"The request did not arrive in time; send it again"}');
    } finally {
      await slow.close();
    }
  }, 15_000);
});
