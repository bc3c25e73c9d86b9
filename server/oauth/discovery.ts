import { discoveryDocumentSchema, type DiscoveryDocument } from '../../contract/oidc-endpoints';
import { GRANT_TYPES, ID_TOKEN_ALGS, KNOWN_SCOPES } from '../../contract/services';
import { PROMPTS } from './checks/check-prompt';

/**
 * The OpenID Provider metadata (OIDC Discovery §3), for issuer = PUBLIC_URL. Served as written
 * once at start: checked against its schema there, not per request.
 */
export function discoveryDocument(issuer: string): DiscoveryDocument {
  return discoveryDocumentSchema.parse({
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/api/v1/oauth/token`,
    userinfo_endpoint: `${issuer}/api/v1/oauth/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/api/v1/oauth/revoke`,
    introspection_endpoint: `${issuer}/api/v1/oauth/introspect`,
    end_session_endpoint: `${issuer}/signout`,
    scopes_supported: KNOWN_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...ID_TOKEN_ALGS],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'jti', 'auth_time', 'amr', 'nonce', 'at_hash', 'azp', 'sid', 'email', 'email_verified', 'name', 'preferred_username', 'picture', 'groups'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    require_request_uri_registration: false,
    prompt_values_supported: PROMPTS,
    authorization_response_iss_parameter_supported: true,
    frontchannel_logout_supported: false,
    backchannel_logout_supported: false,
  });
}
