import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Migrator, sql, type Migration } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Database } from '../../server/db/database';
import { migrations } from '../../server/db/migrations/index';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let db: Database;
beforeEach(async () => {
  database = await createTestDatabase();
  db = openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir }).db;
});
afterEach(async () => {
  await db.destroy();
  await database.drop();
});

const migrateTo = async (name: string) => {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(name);
  expect(error).toBeUndefined();
};

it('names the successor of every refresh token rotated before the upgrade', async () => {
  await migrateTo('2026-11-22T0300-one-signing-key-per-alg');
  await db.insertInto('users').values({ id: 'u', email: 'u@example.com', password_hash: 'x', full_name: 'U', email_verified: 1, avatar_verified: 0, verified: 0, is_admin: 0, created_at: 1, updated_at: 1 }).execute();
  await db.insertInto('user_sessions').values({ id: 's', user_id: 'u', device_info: '{}', ip_address: null, issued_at: 1, expires_at: 9e12, last_active: 1, revoked_at: null } as never).execute();
  // The columns of the time, renamed since (token_key, parent_key).
  const token = (token_hash: string, parent_hash: string | null, created_at: number, rotated_at: number | null) => ({ token_hash, session_id: 's', parent_hash, created_at, rotated_at }) as never;
  await db
    .insertInto('refresh_tokens')
    .values([
      // first was rotated into lost, then presented again within the grace window: retry replaced lost.
      token('first', null, 1, 2),
      token('lost', 'first', 2, 3),
      token('retry', 'first', 3, 4),
      // retry was rotated normally; live is the session's token now.
      token('live', 'retry', 4, null),
    ])
    .execute();

  await migrateToLatest(db);
  const rows = await db.selectFrom('refresh_tokens').select(['token_key', 'replaced_by']).orderBy('created_at').execute();
  expect(rows).toEqual([
    { token_key: 'first', replaced_by: 'retry' },
    { token_key: 'lost', replaced_by: null },
    { token_key: 'retry', replaced_by: 'live' },
    { token_key: 'live', replaced_by: null },
  ]);
});

it('keeps the tokens issued before selectors, and going back drops only the newer ones', async () => {
  await migrateTo('2026-11-23T0000-refresh-token-successor');
  await db.insertInto('users').values({ id: 'u', email: 'u@example.com', password_hash: 'x', full_name: 'U', email_verified: 1, avatar_verified: 0, verified: 0, is_admin: 0, created_at: 1, updated_at: 1 }).execute();
  await db.insertInto('api_services').values({ id: 'a', name: 'A', description: '', client_id: 'c', client_secret_hash: 'x', redirect_uris: '[]', post_logout_redirect_uris: '[]', scopes: '["openid"]', grant_types: '[]', is_active: 1, icon_url: null, id_token_signed_response_alg: 'RS256', created_at: 1, updated_at: 1 }).execute();
  await db.insertInto('service_sessions').values({ id: 's', service_id: 'a', user_id: 'u', user_session_id: null, scope: 'openid', ip_address: null, auth_time: 1, issued_at: 1, expires_at: 9e12, last_active: 1, revoked_at: null } as never).execute();
  const token = { kind: 'access', scope: 'openid', service_session_id: 's', created_at: 1, expires_at: 9e12, used_at: null } as const;
  await db.insertInto('service_tokens').values({ ...token, token_hash: 'hash of an older token' } as never).execute();
  await db.insertInto('user_sessions').values({ id: 'us', user_id: 'u', device_info: '{}', ip_address: null, issued_at: 1, expires_at: 9e12, last_active: 1, revoked_at: null } as never).execute();
  const refresh = { session_id: 'us', created_at: 1, rotated_at: null, replaced_by: null };
  await db.insertInto('refresh_tokens').values({ ...refresh, token_hash: 'hash of an older refresh token', parent_hash: null } as never).execute();

  await migrateToLatest(db);
  await db.insertInto('service_tokens').values({ ...token, token_key: 'selector', verifier_hash: 'hash of its secret' }).execute();
  await db.insertInto('refresh_tokens').values({ ...refresh, token_key: 'refresh selector', verifier_hash: 'hash of its secret', parent_key: 'hash of an older refresh token' }).execute();
  expect(await db.selectFrom('service_tokens').select(['token_key', 'verifier_hash']).orderBy('token_key').execute()).toEqual([
    { token_key: 'hash of an older token', verifier_hash: null },
    { token_key: 'selector', verifier_hash: 'hash of its secret' },
  ]);
  expect(await db.selectFrom('refresh_tokens').select(['token_key', 'verifier_hash', 'parent_key']).orderBy('token_key').execute()).toEqual([
    { token_key: 'hash of an older refresh token', verifier_hash: null, parent_key: null },
    { token_key: 'refresh selector', verifier_hash: 'hash of its secret', parent_key: 'hash of an older refresh token' },
  ]);

  await migrateTo('2026-11-23T0000-refresh-token-successor');
  expect(await db.selectFrom('service_tokens').selectAll().execute()).toEqual([{ ...token, token_hash: 'hash of an older token' }]);
  expect(await db.selectFrom('refresh_tokens').selectAll().execute()).toEqual([{ ...refresh, token_hash: 'hash of an older refresh token', parent_hash: null }]);
});

it('says that sessions, codes and service sessions from before two-step sign-in were opened with the password alone', async () => {
  await migrateTo('2026-12-01T0100-recovery-codes');
  await db.insertInto('users').values({ id: 'u', email: 'u@example.com', password_hash: 'x', full_name: 'U', email_verified: 1, avatar_verified: 0, verified: 0, is_admin: 0, created_at: 1, updated_at: 1 }).execute();
  await db.insertInto('api_services').values({ id: 'a', name: 'A', description: '', client_id: 'c', client_secret_hash: 'x', redirect_uris: '[]', post_logout_redirect_uris: '[]', scopes: '["openid"]', grant_types: '[]', is_active: 1, icon_url: null, id_token_signed_response_alg: 'RS256', created_at: 1, updated_at: 1 }).execute();
  await db.insertInto('user_sessions').values({ id: 'us', user_id: 'u', device_info: '{}', ip_address: null, issued_at: 1, expires_at: 9e12, last_active: 1, revoked_at: null } as never).execute();
  await db.insertInto('service_sessions').values({ id: 'ss', service_id: 'a', user_id: 'u', user_session_id: 'us', scope: 'openid', ip_address: null, auth_time: 1, issued_at: 1, expires_at: 9e12, last_active: 1, revoked_at: null } as never).execute();
  await db.insertInto('oauth_codes').values({ code_hash: 'h', service_id: 'a', user_id: 'u', user_session_id: 'us', redirect_uri: 'http://x/cb', scope: 'openid', nonce: null, code_challenge: null, code_challenge_method: null, auth_time: 1, ip_address: null, created_at: 1, expires_at: 9e12, used_at: null, service_session_id: null } as never).execute();

  await migrateToLatest(db);
  const amr = await Promise.all((['user_sessions', 'service_sessions', 'oauth_codes'] as const).map((table) => db.selectFrom(table).select('amr').execute()));
  expect(amr).toEqual([[{ amr: 'pwd' }], [{ amr: 'pwd' }], [{ amr: 'pwd' }]]);
  // And the people already there are in no group.
  expect(await db.selectFrom('users').select('groups').execute()).toEqual([{ groups: '[]' }]);
  // And every account there stays enabled.
  expect(await db.selectFrom('users').select('disabled_at').execute()).toEqual([{ disabled_at: null }]);
  // And the services already there take sign-ins with the password alone, as before.
  expect(await db.selectFrom('api_services').select('require_two_step').execute()).toEqual([{ require_two_step: 0 }]);
  // And they keep their secrets: none becomes a public client.
  expect(await db.selectFrom('api_services').select('public_client').execute()).toEqual([{ public_client: 0 }]);
  // And the codes already there are taken to have named their redirect_uri: the token request repeats it.
  expect(await db.selectFrom('oauth_codes').select('redirect_uri_sent').execute()).toEqual([{ redirect_uri_sent: 1 }]);
});

it('gives everyone already there a username made from their email, the oldest account keeping the plain one', async () => {
  await migrateTo('2026-12-01T0400-launch-urls');
  const user = (id: string, email: string, created_at: number) => ({ id, email, password_hash: 'x', full_name: id, email_verified: 1, avatar_verified: 0, verified: 0, is_admin: 0, created_at, updated_at: 1 }) as const;
  await db.insertInto('users').values([user('newer', 'ann@example.org', 2), user('older', 'Ann@example.com', 1), user('other', 'zoë+x@example.com', 3)]).execute();

  await migrateToLatest(db);
  expect(await db.selectFrom('users').select(['id', 'username']).orderBy('created_at').execute()).toEqual([
    { id: 'older', username: 'ann' },
    { id: 'newer', username: 'ann-2' },
    { id: 'other', username: 'zoe-x' },
  ]);
  await expect(db.updateTable('users').set({ username: 'ann' }).where('id', '=', 'other').execute(), 'unique').rejects.toThrow();
});

it('brings stored addresses to Unicode NFC, leaving one whose NFC twin is someone else\'s as it is', async () => {
  await migrateTo('2026-12-03T0200-service-creation-keys');
  const user = (id: string, email: string, created_at: number) => ({ id, email, username: id, password_hash: 'x', full_name: id, email_verified: 1, avatar_verified: 0, verified: 0, is_admin: 0, created_at, updated_at: 1 }) as const;
  await db.insertInto('users').values([user('decomposed', 'rene\u0301@example.com', 1), user('twin', 'zoe\u0308@example.com', 2), user('composed', 'zo\u00eb@example.com', 3), user('plain', 'ann@example.com', 4)]).execute();

  await migrateToLatest(db);
  expect(await db.selectFrom('users').select(['id', 'email']).orderBy('created_at').execute()).toEqual([
    { id: 'decomposed', email: 'ren\u00e9@example.com' },
    { id: 'twin', email: 'zoe\u0308@example.com' },
    { id: 'composed', email: 'zo\u00eb@example.com' },
    { id: 'plain', email: 'ann@example.com' },
  ]);
});

it("keeps an account's picture as its path, whatever PUBLIC_URL it was uploaded under", async () => {
  await migrateTo('2026-12-05T0000-second-steps-set-up-unproved');
  const user = (id: string, profile_picture: string | null, created_at: number) => ({ id, email: `${id}@example.com`, username: id, password_hash: 'x', full_name: id, profile_picture, email_verified: 1, avatar_verified: 0, verified: 0, is_admin: 0, created_at, updated_at: 1 }) as const;
  await db.insertInto('users').values([user('http', 'http://192.168.1.5:8080/avatars/abc.webp', 1), user('https', 'https://id.home.lan/avatars/def.webp', 2), user('none', null, 3), user('path', '/avatars/ghi.webp', 4)]).execute();

  await migrateToLatest(db);
  expect(await db.selectFrom('users').select(['id', 'profile_picture']).orderBy('created_at').execute()).toEqual([
    { id: 'http', profile_picture: '/avatars/abc.webp' },
    { id: 'https', profile_picture: '/avatars/def.webp' },
    { id: 'none', profile_picture: null },
    { id: 'path', profile_picture: '/avatars/ghi.webp' },
  ]);
});

it("restores a PostgreSQL backup from before an upgrade as the README says, and the next start brings it up to date", async () => {
  if (!database.databaseUrl) return; // SQLite's backup is a file put in place of the database's
  const url = database.databaseUrl;
  const run = (command: string, args: string[]) => promisify(execFile)(command, args);
  const user = (id: string, created_at: number) => ({ id, email: `${id}@example.com`, username: id, password_hash: 'x', full_name: id, email_verified: 1, avatar_verified: 0, verified: 0, is_admin: 0, created_at, updated_at: 1 }) as const;
  await migrateTo('2026-12-03T0200-service-creation-keys');
  await db.insertInto('users').values(user('before', 1)).execute();
  const dump = path.join(database.dataDir, 'home-guard.dump');
  await run('pg_dump', ['-Fc', '-f', dump, url]);
  // The upgrade adds tables with foreign keys to users (authenticator_app_setups), and an account.
  await migrateToLatest(db);
  await db.insertInto('users').values(user('after', 2)).execute();
  await db.destroy();

  await run('psql', [url, '-q', '-c', 'DROP SCHEMA public CASCADE', '-c', 'CREATE SCHEMA public']);
  await run('pg_restore', ['-d', url, dump]);
  db = openDatabase({ databaseUrl: url, dataDir: database.dataDir }).db;
  await migrateToLatest(db);
  expect(await db.selectFrom('users').select('id').execute()).toEqual([{ id: 'before' }]);
});

it('a migration that fails part-way leaves none of itself behind, and the next start runs it whole', async () => {
  await migrateToLatest(db);
  let killed = true;
  // Two statements, then the end (a process killed, a full disk) before it is recorded.
  const halfDone: Migration = {
    up: async (on) => {
      await on.schema.createTable('half_done').addColumn('id', 'text').execute();
      await on.schema.alterTable('users').addColumn('added_later', 'text').execute();
      if (killed) throw new Error('killed part-way');
    },
  };
  const upgraded = { ...migrations, '2099-01-01T0000-half-done': halfDone };
  await expect(migrateToLatest(db, upgraded)).rejects.toThrow('database migration 2099-01-01T0000-half-done failed: killed part-way');
  await expect(sql`select count(*) from half_done`.execute(db)).rejects.toThrow();

  killed = false;
  await migrateToLatest(db, upgraded);
  expect((await sql<{ id: string }>`select id from half_done`.execute(db)).rows).toEqual([]);
  await db.updateTable('users').set({ added_later: 'x' } as never).execute();
});

it('upgrades a database migrated by 2026-12-01T0300-groups under its first name, before it was edited to add the services\' allowed groups', async () => {
  // The migrations as they were at 50b5d6e: the groups one named -user-groups, and giving users theirs only.
  const names = Object.keys(migrations);
  const before = Object.fromEntries(names.slice(0, names.indexOf('2026-12-01T0300-groups')).map((name) => [name, migrations[name]!]));
  const userGroups: Migration = { up: async (on) => void (await on.schema.alterTable('users').addColumn('groups', 'text', (c) => c.notNull().defaultTo(sql`'[]'`)).execute()) };
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => ({ ...before, '2026-12-01T0300-user-groups': userGroups }) } }).migrateToLatest();
  expect(error).toBeUndefined();
  await db.insertInto('api_services').values({ id: 'a', name: 'A', description: '', client_id: 'c', client_secret_hash: 'x', redirect_uris: '[]', post_logout_redirect_uris: '[]', scopes: '["openid"]', grant_types: '[]', is_active: 1, icon_url: null, id_token_signed_response_alg: 'RS256', created_at: 1, updated_at: 1 } as never).execute();

  await migrateToLatest(db);
  expect(await db.selectFrom('api_services').select(['id', 'allowed_groups']).execute()).toEqual([{ id: 'a', allowed_groups: '[]' }]);
  const recorded = await sql<{ name: string }>`select name from kysely_migration where name like '2026-12-01T0300-%'`.execute(db);
  expect(recorded.rows).toEqual([{ name: '2026-12-01T0300-groups' }]);
  // And again, as every start does: nothing left to do.
  await migrateToLatest(db);
});
