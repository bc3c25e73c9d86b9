import { z } from 'zod';

/** An authorization parameter: optional text, its limit named when passed (the service's developer reads it). */
const param = (max: number) => z.string().max(max, `must be at most ${max} characters`).optional();

/** The authorization request's parameters as the consent screen reads them (all optional text). */
export const authorizationParamsSchema = z.object({
  client_id: param(200),
  redirect_uri: param(2000),
  response_type: param(100),
  response_mode: param(100),
  scope: param(1000),
  // Long enough for a relying party that keeps the page to return to in it (oauth2-proxy: nonce:URL).
  state: param(8000),
  nonce: param(500),
  code_challenge: param(200),
  code_challenge_method: param(20),
  prompt: param(100),
  max_age: param(20),
  login_hint: param(300),
  id_token_hint: param(8000),
  /** Request objects (OIDC Core §6): read only to be refused with request_not_supported / request_uri_not_supported. */
  request: param(8000),
  request_uri: param(2000),
});
export type AuthorizationParams = z.infer<typeof authorizationParamsSchema>;
export const AUTHORIZATION_PARAMS = Object.keys(authorizationParamsSchema.shape) as Array<keyof AuthorizationParams>;

/**
 * A request's parameters as a query string or a form gives them: a repeated one arrives as a
 * list, only to be refused (RFC 6749 §3.1).
 */
function allowingRepeats<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  const shape = Object.fromEntries(Object.entries(schema.shape).map(([name, field]) => [name, z.union([field, z.array(z.string().max(8000)).max(20)])]));
  return z.object(shape as { [K in keyof S]: z.ZodUnion<[S[K], z.ZodArray<z.ZodString>]> });
}

/** GET /api/v1/oauth/authorize, and a form posted to /auth: the parameters as the service sent them. */
export const authorizationQuerySchema = allowingRepeats(authorizationParamsSchema);
export type AuthorizationQuery = z.infer<typeof authorizationQuerySchema>;

/**
 * The names sent more than once in a query string, among the authorization request's. One sent
 * without a value is as if not sent (RFC 6749 §3.1): `scope=openid&scope=` is no repeat.
 */
export function repeatedAuthorizationParams(search: string): Array<keyof AuthorizationParams> {
  const names = [...new URLSearchParams(search)].filter(([, value]) => value !== '').map(([name]) => name);
  return AUTHORIZATION_PARAMS.filter((name) => names.indexOf(name) !== names.lastIndexOf(name));
}

/** GET /api/v1/oauth/authorize: a valid request, as the consent screen shows it. */
export const authorizationCheckSchema = z.object({
  service: z.object({ client_id: z.string(), name: z.string(), icon_url: z.string().nullable() }),
  scopes: z.array(z.string()),
  redirect_uri: z.string(),
  state: z.string().nullable(),
  issuer: z.string(),
  prompt: z.array(z.string()),
  max_age: z.number().nullable(),
  login_hint: z.string().nullable(),
  /** The user the id_token_hint names (its `sub`), when a valid hint was sent. */
  hinted_subject: z.string().nullable(),
});
export type AuthorizationCheck = z.infer<typeof authorizationCheckSchema>;

/** An OAuth error answer; `redirect_to` is set when the error goes back to the service. */
export const oauthErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
  redirect_to: z.string().optional(),
});
export type OAuthErrorBody = z.infer<typeof oauthErrorSchema>;

/**
 * POST /api/v1/oauth/code: the request as the service sent it. With `if_approved`, a code comes
 * only for scopes the person allowed this service before, while still signed in to it (listed
 * under Services in Personal Info), and not when the service asks for consent (prompt=consent);
 * otherwise 204 No Content, and the consent screen asks.
 */
export const codeRequestSchema = authorizationParamsSchema.extend({ if_approved: z.boolean().optional() });
export type CodeRequest = z.infer<typeof codeRequestSchema>;

export const codeResponseSchema = z.object({ code: z.string(), redirect_to: z.string() });

/** POST /api/v1/oauth/end-session */
export const endSessionRequestSchema = z.object({
  id_token_hint: z.string().max(8000).optional(),
  post_logout_redirect_uri: z.string().max(2000).optional(),
  state: z.string().max(8000).optional(),
  client_id: z.string().max(200).optional(),
});
export type EndSessionRequest = z.infer<typeof endSessionRequestSchema>;
export const END_SESSION_PARAMS = Object.keys(endSessionRequestSchema.shape) as Array<keyof EndSessionRequest>;
/** A form posted to /signout: the parameters as the service sent them. */
export const endSessionQuerySchema = allowingRepeats(endSessionRequestSchema);
export const endSessionResponseSchema = z.object({
  /** Where to send the browser, or null to stay on the signed-out page. */
  redirect_to: z.string().nullable(),
  /** The user whose account this device should sign out, when the hint is of a service session still open (else the page asks). */
  subject: z.string().nullable(),
});

const tokenParam = z.string().max(8000).optional();
/** The client's credentials in a form body (client_secret_post, or a public client's client_id). */
const clientCredentialsSchema = z.object({ client_id: tokenParam, client_secret: tokenParam });

/** POST /api/v1/oauth/token (RFC 6749 §4.1.3, §6): a form; parameters of other extensions pass. */
export const tokenRequestSchema = clientCredentialsSchema
  .extend({ grant_type: tokenParam, code: tokenParam, redirect_uri: tokenParam, code_verifier: tokenParam, refresh_token: tokenParam, scope: tokenParam })
  .passthrough();
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** The token endpoint's answer (RFC 6749 §5.1, OIDC Core §3.1.3.3); a refresh_token only where the service may refresh. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  // 0 when the service session ends within the second.
  expires_in: z.number().int().nonnegative(),
  id_token: z.string(),
  refresh_token: z.string().optional(),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** POST /api/v1/oauth/userinfo (RFC 6750 §2.2): the access token in a form body, when not in the Authorization header. */
export const userinfoBodySchema = z.object({ access_token: tokenParam }).passthrough().nullish();

/** POST /api/v1/oauth/introspect and /revoke (RFC 7662 §2.1, RFC 7009 §2.1): a form. */
export const tokenBodySchema = clientCredentialsSchema.extend({ token: tokenParam, token_type_hint: tokenParam }).passthrough();

/**
 * The claims about the person a service is given, in its ID tokens and at userinfo (OIDC Core
 * §5.1): `sub` always, the others by scope (email; profile; groups).
 */
export const userClaimsSchema = z.object({
  sub: z.string(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  preferred_username: z.string().optional(),
  picture: z.string().optional(),
  groups: z.array(z.string()).optional(),
});
export type UserClaims = z.infer<typeof userClaimsSchema>;

/** POST /api/v1/oauth/introspect (RFC 7662 §2.2): `active` alone for a token that is not, or not the client's. */
export const introspectionSchema = z.object({
  active: z.boolean(),
  sub: z.string().optional(),
  client_id: z.string().optional(),
  scope: z.string().optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
  token_type: z.enum(['Bearer', 'refresh_token']).optional(),
});
export type Introspection = z.infer<typeof introspectionSchema>;

/** GET /.well-known/openid-configuration: the addresses a service is configured with (OIDC Discovery §3). */
export const discoveryLinksSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  end_session_endpoint: z.string(),
});
export type DiscoveryLinks = z.infer<typeof discoveryLinksSchema>;

const names = z.array(z.string());
/** The whole OpenID Provider metadata document (OIDC Discovery §3, RFC 8414, RFC 9207): what a relying party is told. */
export const discoveryDocumentSchema = discoveryLinksSchema
  .extend({
    jwks_uri: z.string(),
    revocation_endpoint: z.string(),
    introspection_endpoint: z.string(),
    scopes_supported: names,
    response_types_supported: names,
    response_modes_supported: names,
    grant_types_supported: names,
    subject_types_supported: names,
    id_token_signing_alg_values_supported: names,
    token_endpoint_auth_methods_supported: names,
    revocation_endpoint_auth_methods_supported: names,
    introspection_endpoint_auth_methods_supported: names,
    code_challenge_methods_supported: names,
    claims_supported: names,
    claims_parameter_supported: z.boolean(),
    request_parameter_supported: z.boolean(),
    request_uri_parameter_supported: z.boolean(),
    require_request_uri_registration: z.boolean(),
    prompt_values_supported: names,
    authorization_response_iss_parameter_supported: z.boolean(),
    frontchannel_logout_supported: z.boolean(),
    backchannel_logout_supported: z.boolean(),
  })
  .strict();
export type DiscoveryDocument = z.infer<typeof discoveryDocumentSchema>;

/** An app's own scheme (RFC 8252) opens the app and leaves the browser tab where it is. */
export const opensAnApp = (url: string): boolean => !/^https?:/i.test(url);

/**
 * The redirect back to a service: its registered URI with the given parameters added after its
 * own query, which is kept as registered (RFC 6749 §3.1.2): rewritten (`%20` as `+`, `flag` as
 * `flag=`), it would no longer be the redirect_uri the service sends to the token endpoint.
 * An error_description is kept to the characters RFC 6749 §4.1.2.1 allows it.
 */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  const added = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) added.append(key, key === 'error_description' ? asErrorDescription(value) : value);
  }
  if (added.size > 0) url.search = url.search ? `${url.search}&${added}` : `?${added}`;
  return url.toString();
}

/**
 * Text as an OAuth error_description may hold it (RFC 6749 §4.1.2.1, §5.2): printable ASCII but
 * `"` and `\`. It names a service, or echoes what a service sent, either of which may hold any
 * character: accents are dropped ("Café" → "Cafe"), quotes become apostrophes and backslashes
 * slashes, anything else "?".
 */
export function asErrorDescription(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/["\u2018\u2019\u201c\u201d]/g, "'")
    .replace(/\\/g, '/')
    .replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}
