import type { ApiServiceRow } from '../../server/api-services/api-services-repository';

/** An API service row written straight to the database, for tests of the database layer. */
export const apiServiceRow = (id: string): ApiServiceRow => ({
  id,
  name: `Service ${id}`,
  description: '',
  client_id: `client-${id}`,
  client_secret_hash: 'hash',
  redirect_uris: '[]',
  post_logout_redirect_uris: '[]',
  scopes: '["openid"]',
  grant_types: '["authorization_code"]',
  is_active: 1,
  icon_url: null,
  id_token_signed_response_alg: 'RS256',
  created_at: 1,
  updated_at: 1,
});
