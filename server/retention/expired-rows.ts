import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { SETUP_LIFETIME_MS } from '../two-step/authenticator-apps';

const HOUR_MS = 3_600_000;
// Rows deleted per statement: a backlog goes in steps between requests, never as one long write.
const CHUNK = 500;
// A used code is kept a day past its expiry, so a replay within it still revokes what the code
// issued (RFC 6749 §4.1.2); later it is refused as unknown.
const CODES_KEPT_AFTER_EXPIRY_MS = 24 * HOUR_MS;
// Throttle windows last at most a day (the verification codes'): a row whose window began a day ago counts nothing.
const THROTTLE_ROWS_KEPT_MS = 24 * HOUR_MS;
// How far a pass may move the time it prunes up to past the last pass's: a clock stepped months
// ahead (set by hand, or an RTC read as local time) then costs a day's expiries a pass, not every
// session and audit event it reads as expired. After a long stop, the passes catch up a day an hour.
const STEP_MS = 24 * HOUR_MS;

export type RetentionPolicy = {
  /**
   * How long a rotated first-party refresh token is kept: a copy presented within it revokes
   * its session (the theft signal); later it is only refused.
   */
  rotatedRefreshTokensKeptMs: number;
  /** How long the audit log keeps an event, and the administrators' session lists a session that has ended. */
  auditEventsKeptMs: number;
  /** How long a signing key is kept once no longer published: its ID tokens are read as sign-out hints that long. */
  signingKeysKeptMs: number;
};

export type Pruned = Record<
  'refresh_tokens' | 'service_tokens' | 'oauth_codes' | 'throttle' | 'password_resets' | 'authenticator_app_setups' | 'audit_events' | 'signing_keys' | 'user_sessions' | 'service_sessions' | 'outbox_mails',
  number
>;

/**
 * Deletes what can no longer be used: every refresh rotation, grant and authorization adds rows,
 * and nothing else ever removes them. Every row deleted is one the server already refuses; all
 * that is given up is the revocation a late replay would have set off, and only after the times
 * above (a service's used refresh token: once it has expired). A session that ended stays as long
 * as the audit log's events about it, as the administrators' session lists show it; then it goes
 * too (a device or address not seen since then is new again to the sign-in notices and throttle).
 * The outbox's mails (no SMTP_URL) go when the audit log's events of the same time do.
 * The expiry and rotation rules scan their tables, as no index serves them (one would cost every
 * grant and refresh another page to write): hourly, with 200,000 tokens in each table and nothing
 * to delete, the whole pass took 42-49 ms of the event loop, 30,000 took 5-9 ms (measured).
 */
export class ExpiredRows {
  constructor(
    private readonly db: Database,
    private readonly policy: RetentionPolicy,
    private readonly clock: () => number,
    private readonly outbox: Pick<Mailer, 'forgetOutboxMails'>,
  ) {}

  /** Deletes what had expired by `through`: now, or a day past the last pass when now is further on. */
  async prune(): Promise<{ through: number; deleted: Pruned }> {
    const through = await this.nextHorizon();
    const deleted = await this.pruneThrough(through);
    await this.db
      .insertInto('pruned_through')
      .values({ id: 1, at: through })
      .onConflict((oc) => oc.column('id').doUpdateSet({ at: through }))
      .execute();
    return { through, deleted };
  }

  /** The last pass's time, or before any pass the latest event recorded, moved on by at most a day. */
  private async nextHorizon(): Promise<number> {
    const now = this.clock();
    const last = await this.db.selectFrom('pruned_through').select('at').where('id', '=', 1).executeTakeFirst();
    const since = last ? Number(last.at) : Number((await this.db.selectFrom('audit_events').select((eb) => eb.fn.max('at').as('latest')).executeTakeFirst())?.latest ?? now);
    return Math.min(now, since + STEP_MS);
  }

  private async pruneThrough(now: number): Promise<Pruned> {
    const db = this.db;
    const endedUserSessions = db.selectFrom('user_sessions').select('id').where((eb) => eb.or([eb('revoked_at', 'is not', null), eb('expires_at', '<=', now)]));
    const endedServiceSessions = db.selectFrom('service_sessions').select('id').where((eb) => eb.or([eb('revoked_at', 'is not', null), eb('expires_at', '<=', now)]));
    const refreshTokens = db.selectFrom('refresh_tokens').select('token_key').limit(CHUNK);
    const serviceTokens = db.selectFrom('service_tokens').select('token_key').limit(CHUNK);
    return {
      // A token of an ended session is refused by its session; a rotated one, after the policy's time, by its rotation.
      refresh_tokens:
        (await inChunks(() => db.deleteFrom('refresh_tokens').where('token_key', 'in', refreshTokens.where('session_id', 'in', endedUserSessions)))) +
        (await inChunks(() => db.deleteFrom('refresh_tokens').where('token_key', 'in', refreshTokens.where('rotated_at', '<=', now - this.policy.rotatedRefreshTokensKeptMs)))),
      service_tokens:
        (await inChunks(() => db.deleteFrom('service_tokens').where('token_key', 'in', serviceTokens.where('service_session_id', 'in', endedServiceSessions)))) +
        (await inChunks(() => db.deleteFrom('service_tokens').where('token_key', 'in', serviceTokens.where('expires_at', '<=', now)))),
      oauth_codes: await inChunks(() =>
        db.deleteFrom('oauth_codes').where('code_hash', 'in', db.selectFrom('oauth_codes').select('code_hash').where('expires_at', '<=', now - CODES_KEPT_AFTER_EXPIRY_MS).limit(CHUNK)),
      ),
      throttle: await inChunks(() =>
        db.deleteFrom('throttle').where('key', 'in', db.selectFrom('throttle').select('key').where('window_start', '<=', now - THROTTLE_ROWS_KEPT_MS).limit(CHUNK)),
      ),
      password_resets: await inChunks(() =>
        db.deleteFrom('password_resets').where('token_hash', 'in', db.selectFrom('password_resets').select('token_hash').where('expires_at', '<=', now).limit(CHUNK)),
      ),
      // One a person at most: no chunks needed.
      authenticator_app_setups: Number((await db.deleteFrom('authenticator_app_setups').where('created_at', '<=', now - SETUP_LIFETIME_MS).executeTakeFirst()).numDeletedRows),
      audit_events: await inChunks(() =>
        db.deleteFrom('audit_events').where('id', 'in', db.selectFrom('audit_events').select('id').where('at', '<=', now - this.policy.auditEventsKeptMs).limit(CHUNK)),
      ),
      // A few rows at most, each with a private key nothing signs or checks with any more.
      signing_keys: Number((await db.deleteFrom('signing_keys').where('expires_at', '<=', now - this.policy.signingKeysKeptMs).executeTakeFirst()).numDeletedRows),
      // Their tokens went above, at the latest in this pass.
      user_sessions: await this.deleteSessionsEndedBefore('user_sessions', now - this.policy.auditEventsKeptMs),
      service_sessions: await this.deleteSessionsEndedBefore('service_sessions', now - this.policy.auditEventsKeptMs),
      // Without SMTP_URL the mails are kept in DATA_DIR/outbox: the notices there hold the addresses
      // and devices of sign-ins, kept no longer than the audit log keeps its events about them.
      outbox_mails: (await this.outbox.forgetOutboxMails?.(now - this.policy.auditEventsKeptMs)) ?? 0,
    };
  }

  /** Deletes the sessions revoked, or expired, at or before `cutoff` (a sliding session's expiry moves with its use). */
  private deleteSessionsEndedBefore(table: 'user_sessions' | 'service_sessions', cutoff: number): Promise<number> {
    const ended = this.db
      .selectFrom(table)
      .select('id')
      .where((eb) => eb.or([eb('revoked_at', '<=', cutoff), eb('expires_at', '<=', cutoff)]))
      .limit(CHUNK);
    return inChunks(() => this.db.deleteFrom(table).where('id', 'in', ended));
  }

  /** Prunes every `intervalMs` (hourly), the first time a minute after start; failures are logged and retried next time. */
  schedule(log: FastifyBaseLogger, intervalMs = HOUR_MS, firstAfterMs = 60_000): { stop(): Promise<void> } {
    let running: Promise<void> | undefined;
    const run = () => {
      // A pass still going (a large backlog) is not joined by a second one.
      running ??= this.prune()
        .then(({ through, deleted }) => log.info({ pruned: deleted, through: new Date(through).toISOString() }, 'expired rows pruned'))
        .catch((error: unknown) => log.warn({ err: error }, 'pruning expired rows failed; trying again at the next interval'))
        .finally(() => (running = undefined));
    };
    let interval: NodeJS.Timeout | undefined;
    const first = setTimeout(() => {
      run();
      interval = setInterval(run, intervalMs).unref();
    }, firstAfterMs).unref();
    return {
      stop: async () => {
        clearTimeout(first);
        clearInterval(interval);
        await running;
      },
    };
  }
}

/** Runs a chunked delete until a chunk comes back short, letting requests run between chunks. */
async function inChunks(chunk: () => { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number((await chunk().executeTakeFirst()).numDeletedRows);
    total += deleted;
    if (deleted < CHUNK) return total;
    await yieldToRequests();
  }
}
