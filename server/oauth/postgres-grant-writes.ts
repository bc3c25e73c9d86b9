import { sql } from 'kysely';
import { insertWhen, rawStatement, type ColumnTypes } from '../db/postgres-one-statement';
import { preparedQueryPerCount } from '../db/prepared-query';
import type { ServiceSessionsTable, ServiceTokensTable } from '../db/schema';

// The token endpoint's writes on PostgreSQL, one statement each (see postgres-one-statement.ts):
// five round trips became one.

const TOKEN_COLUMNS: ColumnTypes<ServiceTokensTable> = {
  token_key: 'text', verifier_hash: 'text', kind: 'text', scope: 'text', service_session_id: 'text', created_at: 'bigint', expires_at: 'bigint', used_at: 'bigint',
};

const SESSION_COLUMNS: ColumnTypes<ServiceSessionsTable> = {
  id: 'text', service_id: 'text', user_id: 'text', user_session_id: 'text', scope: 'text', ip_address: 'text',
  auth_time: 'bigint', amr: 'text', issued_at: 'bigint', expires_at: 'bigint', last_active: 'bigint', revoked_at: 'bigint',
};

const tokenRow = (at: number) => `${at}.`;

/** Uses a refresh token once, stores its successors and slides the session: one row back, or none on reuse. */
export const rotateInOneStatement = preparedQueryPerCount((db, value, count) =>
  rawStatement(db, sql<{ claimed: string }>`
    with used as (
      update service_tokens set used_at = ${value('now')} where token_key = ${value('refreshKey')} and used_at is null returning token_key
    ), slid as (
      update service_sessions set last_active = ${value('now')}, expires_at = ${value('expiresAt')}
      where id = ${value('sessionId')} and exists (select 1 from used)
    ), issued as (${insertWhen(value, 'service_tokens', TOKEN_COLUMNS, count, tokenRow, 'used')})
    select token_key as claimed from used`),
);

/**
 * Uses a code and opens the session it grants with its first tokens: one row back, or none when
 * the code was used or the sign-in behind it has ended. That sign-in's row is locked (for share)
 * until this commits: a revoke that got there first is waited for and seen, and one that comes
 * after waits, then finds this session among the user's to end.
 */
export const openSessionInOneStatement = preparedQueryPerCount((db, value, count) =>
  rawStatement(db, sql<{ claimed: string }>`
    with used as (
      update oauth_codes set used_at = ${value('session.issued_at')}, service_session_id = ${value('session.id')}
      where code_hash = ${value('codeHash')} and used_at is null
        and exists (select 1 from user_sessions where id = ${value('session.user_session_id')} and revoked_at is null for share)
      returning code_hash
    ), opened as (${insertWhen(value, 'service_sessions', SESSION_COLUMNS, 1, () => 'session.', 'used')} returning id
    ), issued as (${insertWhen(value, 'service_tokens', TOKEN_COLUMNS, count, tokenRow, 'opened')})
    select code_hash as claimed from used`),
);
