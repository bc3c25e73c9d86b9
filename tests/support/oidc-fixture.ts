import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { afterEach, beforeEach } from 'vitest';
import { verifyThroughApi } from '../e2e/support/api';
import { freePort } from './server-process';
import { startTestApp, type TestApp } from './test-app';

export type OidcFixture = {
  t: TestApp;
  issuer: string;
  adminToken: string;
  /** To sign in again, once the clock has moved past `adminToken`'s end. */
  admin: { email: string; password: string };
  user: { email: string; password: string; name: string; access: string };
  createService(overrides?: Record<string, unknown>): Promise<{ id: string; clientId: string; clientSecret: string }>;
  /** The service's relying party, as openid-client discovers it (plain HTTP allowed: the issuer is on loopback). */
  relyingParty(service: { clientId: string; clientSecret: string }): Promise<client.Configuration>;
  /** The consent screen's part, done through its API: the holder of `token` (the user by default) allows the request; answers the callback with its code. */
  allow(authorizationUrl: URL, token?: string): Promise<URL>;
  /**
   * Signs in to a service as its relying party would: PKCE, the code asked for with `token` (the
   * user's by default), then exchanged. The callback and verifier are there to replay the code.
   */
  signInToService(config: client.Configuration, options?: { scope?: string; token?: string }): Promise<ServiceSignIn>;
  close(): Promise<void>;
};

/** A service as createService made it: its id and credentials. */
export type FixtureService = Awaited<ReturnType<OidcFixture['createService']>>;

/**
 * For a test file each of whose tests needs a fixture with one service: starts both before each
 * test, hands them to `use` (the file's own variables), and closes the fixture after.
 */
export function eachTestWithAService(use: (f: OidcFixture, service: FixtureService) => void): void {
  let fixture: OidcFixture | undefined;
  beforeEach(async () => {
    fixture = await startOidcFixture();
    use(fixture, await fixture.createService());
  });
  afterEach(async () => fixture?.close());
}

export type ServiceSignIn = { callback: URL; verifier: string; tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>> };

export const CALLBACK = 'http://127.0.0.1:9/callback';

/** The PKCE verifier of the codes asked for with codeRequest. */
export const TEST_VERIFIER = 'v'.repeat(43) + 'erifier-for-tests';

/**
 * A code request for `service` as the consent screen sends it: CALLBACK, scope "openid email",
 * state "st" and an S256 challenge of TEST_VERIFIER, with `params` over those (undefined leaves
 * one out), asked with `access` (the user's by default).
 */
export async function codeRequest(f: OidcFixture, service: { clientId: string }, params: Record<string, string | boolean | undefined> = {}, access = f.user.access) {
  const request = { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email', state: 'st', code_challenge: await client.calculatePKCECodeChallenge(TEST_VERIFIER), code_challenge_method: 'S256', ...params };
  return json(f.issuer, 'POST', '/api/v1/oauth/code', request, access);
}

/**
 * The token endpoint's answer to `form`, the service authenticating with HTTP Basic (its
 * credentials form-encoded first, RFC 6749 §2.3.1) or, with `auth: 'post'`, in the form.
 */
export async function tokenRequest(issuer: string, service: { clientId: string; clientSecret: string }, form: Record<string, string>, auth: 'basic' | 'post' = 'basic') {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const body = new URLSearchParams(form);
  if (auth === 'basic') headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(service.clientId)}:${encodeURIComponent(service.clientSecret)}`).toString('base64')}`;
  else {
    body.set('client_id', service.clientId);
    body.set('client_secret', service.clientSecret);
  }
  const response = await fetch(`${issuer}/api/v1/oauth/token`, { method: 'POST', headers, body });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** The token endpoint's answer to `form`, the service authenticating in the form (client_secret_post). */
export const tokenEndpoint = async (issuer: string, service: { clientId: string; clientSecret: string }, form: Record<string, string>) => (await tokenRequest(issuer, service, form, 'post')).body;

async function json(issuer: string, method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`${issuer}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** A listening app whose PUBLIC_URL is its real address, an administrator, and a verified user. */
export async function startOidcFixture(env: Record<string, string> = {}): Promise<OidcFixture> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  // A stand-in for the built PWA, so the page endpoints (/auth, /signout) answer.
  const web = mkdtempSync(path.join(os.tmpdir(), 'hg-oidc-web-'));
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Home Guard</title>');
  const t = await startTestApp({ PUBLIC_URL: issuer, STATIC_DIR: web, ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  const outbox = path.join(t.database.dataDir, 'outbox');
  const login = async (person: { email: string; password: string; name: string }) => {
    await json(issuer, 'POST', '/api/v1/register', { full_name: person.name, email: person.email, password: person.password });
    await verifyThroughApi(person, issuer, outbox);
    return (await json(issuer, 'POST', '/api/v1/auth/login', { email: person.email, password: person.password })).body.access as string;
  };
  const admin = { name: 'Admin', email: 'admin@oidc.test', password: 'Admin-pass1' };
  const adminToken = await login(admin);
  const person = { name: 'Olivia Ident', email: 'olivia@oidc.test', password: 'Olivia-pass1' };
  const access = await login(person);
  const allow = async (authorizationUrl: URL, token = access) => {
    const answer = await json(issuer, 'POST', '/api/v1/oauth/code', Object.fromEntries(authorizationUrl.searchParams), token);
    if (answer.status !== 200) throw new Error(`code request refused: ${JSON.stringify(answer.body)}`);
    return new URL(answer.body.redirect_to);
  };
  return {
    t,
    issuer,
    adminToken,
    admin: { email: admin.email, password: admin.password },
    user: { ...person, access },
    async createService(overrides = {}) {
      const created = await json(issuer, 'POST', '/api/v1/admin/api-services', {
        name: 'Grafana',
        description: 'Dashboards',
        redirect_uris: [CALLBACK],
        scopes: ['openid', 'email', 'profile', 'offline_access'],
        grant_types: ['authorization_code', 'refresh_token'],
        ...overrides,
      }, adminToken);
      if (created.status !== 200) throw new Error(`creating the service failed: ${JSON.stringify(created.body)}`);
      return { id: created.body.id, clientId: created.body.credentials.client_id, clientSecret: created.body.credentials.client_secret };
    },
    relyingParty: (service) => client.discovery(new URL(issuer), service.clientId, service.clientSecret, undefined, { execute: [client.allowInsecureRequests] }),
    allow,
    async signInToService(config, { scope = 'openid offline_access', token = access } = {}) {
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
      const callback = await allow(url, token);
      return { callback, verifier, tokens: await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }) };
    },
    async close() {
      await t.close();
      rmSync(web, { recursive: true });
    },
  };
}

export { json as oidcJson };
