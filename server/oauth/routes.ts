import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTHORIZATION_PARAMS, END_SESSION_PARAMS, authorizationCheckSchema, authorizationQuerySchema, codeRequestSchema, codeResponseSchema, endSessionQuerySchema, endSessionRequestSchema, endSessionResponseSchema, oauthErrorSchema } from '../../contract/oauth';
import { introspectionSchema, tokenBodySchema, tokenRequestSchema, tokenResponseSchema, userClaimsSchema, userinfoBodySchema } from '../../contract/oidc-endpoints';
import { bearerToken } from '../http/authenticate';
import { JWKS_MAX_AGE_SECONDS } from '../keys/signing-keys';
import { requestSource } from '../audit/audit-log';
import type { Services } from '../services';
import { authenticateClient, readClientCredentials } from './checks/client-authentication';
import { discoveryDocument } from './discovery';
import { installFormBodyParser } from './form-body';
import { installOAuthErrorHandling, OAuthError } from './oauth-error';

const errors = { 400: oauthErrorSchema, 401: oauthErrorSchema, 403: oauthErrorSchema };

// Services call these from other origins (browsers included): open to any origin, without cookies.
const CROSS_ORIGIN = ['/.well-known/openid-configuration', '/.well-known/jwks.json', '/api/v1/oauth/token', '/api/v1/oauth/userinfo', '/api/v1/oauth/revoke', '/api/v1/oauth/introspect'];

function allowCrossOrigin(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!CROSS_ORIGIN.includes(request.url.split('?')[0]!)) return;
    // A browser app reads a 401's challenge only if told it may (Fetch: CORS-safelisted headers).
    reply.header('Access-Control-Allow-Origin', '*').header('Access-Control-Expose-Headers', 'WWW-Authenticate');
    // What a request may carry is the preflight's answer; the request's own answer needs only the origin.
    if (request.method === 'OPTIONS') reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type').header('Access-Control-Allow-Methods', 'GET, POST');
    // Cross-origin readers need this; the default of same-origin would block them.
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  for (const url of CROSS_ORIGIN) app.options(url, async (_request, reply) => reply.code(204).send());
}

/**
 * The page's address with the request's known parameters as its query (others are left behind).
 * A repeated one stays repeated, for the page to refuse as it refuses it in a GET: sent back to
 * the service, once the client and its redirect_uri are known good.
 */
function asGet(page: string, names: readonly string[], body: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const name of names) {
    for (const value of [body[name]].flat()) if (typeof value === 'string') query.append(name, value);
  }
  const text = query.toString();
  return text ? `${page}?${text}` : page;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A userinfo request not made as RFC 6750 §2 says, with the challenge §3 asks of a refusal. */
const bearerRefusal = (description: string) => new OAuthError('invalid_request', description, 400, undefined, { 'WWW-Authenticate': `Bearer error="invalid_request", error_description="${description}"` });

/**
 * The token, introspection and revocation endpoints take form bodies only (RFC 6749 §3.2, RFC 7662
 * §2.1, RFC 7009 §2.1): checked as the request comes, so a body of a type no parser reads is told this too.
 */
async function requireForm(request: FastifyRequest): Promise<void> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded');
  }
}

const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');

export const oauthRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  installOAuthErrorHandling(app);
  installFormBodyParser(app);
  allowCrossOrigin(app);
  const { oauth, config } = services;

  const authenticatedClient = async (request: FastifyRequest, body: { client_id?: string | undefined; client_secret?: string | undefined }) => {
    const credentials = readClientCredentials(request.headers.authorization, body);
    return authenticateClient(await oauth.services.findByClientId(credentials.clientId), credentials);
  };
  // RFC 7662 §2.1 wants the endpoint protected: a public client's client_id proves nothing.
  const confidentialClient = async (request: FastifyRequest, body: { client_id?: string | undefined; client_secret?: string | undefined }) => {
    const client = await authenticatedClient(request, body);
    if (client.public_client === 1) throw new OAuthError('invalid_client', 'A public client may not introspect tokens', 401);
    return client;
  };

  // Both documents are serialised once, not per request: relying parties poll them.
  const discovery = JSON.stringify(discoveryDocument(config.publicUrl));
  app.get('/.well-known/openid-configuration', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=3600').type(JSON_TYPE).send(discovery),
  );

  let jwks: { keys: unknown[]; json: string } | undefined;
  app.get('/.well-known/jwks.json', async (_request, reply) => {
    const keys = await services.keys.publishedJwks();
    if (jwks?.keys !== keys) jwks = { keys, json: JSON.stringify({ keys }) };
    return reply.header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`).type(JSON_TYPE).send(jwks.json);
  });

  // A form POST to the authorization endpoint (OIDC Core §3.1.2.1) or the end-session endpoint
  // (RP-Initiated Logout §2) becomes the same request as a GET to its page.
  app.post('/auth', { schema: { body: authorizationQuerySchema.passthrough() } }, async (request, reply) => reply.redirect(asGet('/auth', AUTHORIZATION_PARAMS, request.body), 303));
  app.post('/signout', { schema: { body: endSessionQuerySchema.passthrough().nullish() } }, async (request, reply) => reply.redirect(asGet('/signout', END_SESSION_PARAMS, request.body ?? {}), 303));

  app.get('/api/v1/oauth/authorize', { schema: { querystring: authorizationQuerySchema.passthrough(), response: { 200: authorizationCheckSchema, ...errors } } }, async (request) =>
    oauth.authorization.check(request.query),
  );

  app.post('/api/v1/oauth/code', { onRequest: services.authenticate, schema: { body: codeRequestSchema.passthrough(), response: { 200: codeResponseSchema, 204: z.null(), ...errors } } }, async (request, reply) => {
    noStore(reply);
    const issued = await oauth.authorization.issueCode(request.body, request.auth!, request.ip);
    if (!issued) return reply.code(204).send(null);
    await services.audit.record({ kind: 'service-signed-in', userId: request.auth!.userId, serviceId: issued.serviceId }, requestSource(request));
    return { code: issued.code, redirect_to: issued.redirect_to };
  });

  app.post('/api/v1/oauth/token', { schema: { body: tokenRequestSchema, response: { 200: tokenResponseSchema } }, onRequest: requireForm }, async (request, reply) => {
    const client = await services.oauthClientThrottle(request, () => authenticatedClient(request, request.body));
    noStore(reply);
    return oauth.tokens.grant(client, request.body, requestSource(request).client);
  });

  const userinfo = async (request: FastifyRequest<{ Body: { access_token?: string } | null | undefined }>, reply: FastifyReply) => {
    noStore(reply);
    const fromBody = request.method === 'POST' ? request.body?.access_token : undefined;
    // Two ways of sending a bearer token are refused (RFC 6750 §2); another scheme's header is not one.
    if (fromBody && /^bearer(\s|$)/i.test(request.headers.authorization ?? '')) throw bearerRefusal('Send the access token once, not twice');
    // A token in the address ends up in logs and history (RFC 6750 §2.3, RFC 9700 §4.3.2): never taken, and said so.
    if ((request.query as Record<string, unknown>).access_token !== undefined) {
      throw bearerRefusal('Send the access token in the Authorization header (Bearer), not in the address');
    }
    return oauth.introspection.userinfo(bearerToken(request) ?? fromBody);
  };
  app.get('/api/v1/oauth/userinfo', { schema: { response: { 200: userClaimsSchema } } }, userinfo);
  app.post('/api/v1/oauth/userinfo', { schema: { body: userinfoBodySchema, response: { 200: userClaimsSchema } } }, userinfo);

  app.post('/api/v1/oauth/introspect', { schema: { body: tokenBodySchema, response: { 200: introspectionSchema } }, onRequest: requireForm }, async (request, reply) => {
    const client = await services.oauthClientThrottle(request, () => confidentialClient(request, request.body));
    noStore(reply);
    return oauth.introspection.introspect(client, request.body.token);
  });

  app.post('/api/v1/oauth/revoke', { schema: { body: tokenBodySchema }, onRequest: requireForm }, async (request, reply) => {
    const client = await services.oauthClientThrottle(request, () => authenticatedClient(request, request.body));
    await oauth.introspection.revoke(client, request.body.token);
    return noStore(reply).code(200).send();
  });

  // The person signs out of a service there; the service sends them here to end its session.
  app.post('/api/v1/oauth/end-session', { schema: { body: endSessionRequestSchema, response: { 200: endSessionResponseSchema, ...errors } } }, async (request) => {
    const { ended, ...answer } = await oauth.endSession.end(request.body);
    if (ended) await services.audit.record({ kind: 'service-session-revoked', userId: ended.userId, serviceId: ended.serviceId }, { ...requestSource(request), actorId: ended.userId });
    return answer;
  });
};
