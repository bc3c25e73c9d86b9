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

/** GET /.well-known/openid-configuration: the addresses a service is configured with (OIDC Discovery §3). */
export const discoveryLinksSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  end_session_endpoint: z.string(),
});
export type DiscoveryLinks = z.infer<typeof discoveryLinksSchema>;

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
