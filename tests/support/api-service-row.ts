import type { ApiServiceRow } from '../../server/api-services/api-services-repository';
import { createTestDatabase, openTestDatabase } from './test-database';

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
  allowed_groups: '[]',
  launch_url: null,
  require_two_step: 0,
  public_client: 0,
  created_at: 1,
  updated_at: 1,
  creation_key: null,
});

/** A fresh test database of `kind` holding services a and b; `close` destroys it. */
export async function databaseWithTwoServices(kind: 'sqlite' | 'postgres') {
  const database = await createTestDatabase(kind);
  const { db } = await openTestDatabase(database);
  await db.insertInto('api_services').values([apiServiceRow('a'), apiServiceRow('b')]).execute();
  return { db, close: async () => (await db.destroy(), await database.drop()) };
}
