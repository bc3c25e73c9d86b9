import { z } from 'zod';
import { discoveryLinksSchema } from './oauth';

// What the OIDC endpoints answer relying parties. The web app calls none of them: kept apart from
// contract/oauth.ts, which it bundles (zod schemas are not dropped from a bundle when unused).

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
