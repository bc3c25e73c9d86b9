import { sql } from 'kysely';
import { insertWhen, rawStatement, type ColumnTypes } from '../db/postgres-one-statement';
import { preparedQuery } from '../db/prepared-query';
import type { RefreshTokensTable } from '../db/schema';

const TOKEN_COLUMNS: ColumnTypes<RefreshTokensTable> = {
  token_key: 'text', verifier_hash: 'text', session_id: 'text', parent_key: 'text', created_at: 'bigint', rotated_at: 'bigint', replaced_by: 'text',
};

/**
 * A first-party refresh on PostgreSQL in one statement (see postgres-one-statement.ts): withdraws
 * the live token, stores its successor (`next.*`) and slides the session. One row back, or none,
 * changing nothing, when the token was no longer live.
 */
export const rotateRefreshTokenInOneStatement = preparedQuery((db, value) =>
  rawStatement(db, sql<{ claimed: string }>`
    with withdrawn as (
      update refresh_tokens set rotated_at = ${value('now')}, replaced_by = ${value('next.token_key')}
      where token_key = ${value('liveKey')} and rotated_at is null returning token_key
    ), stored as (${insertWhen(value, 'refresh_tokens', TOKEN_COLUMNS, 1, () => 'next.', 'withdrawn')}
    ), slid as (
      update user_sessions set last_active = ${value('now')}, expires_at = ${value('expiresAt')}
      where id = ${value('next.session_id')} and exists (select 1 from withdrawn)
    )
    select token_key as claimed from withdrawn`),
);
