import { sql, type Selectable, type Transaction } from 'kysely';
import type { Profile } from '../../contract/accounts';
import type { Database } from '../db/database';
import { isUniqueViolation } from '../db/constraint-violations';
import { firstRow, preparedQuery } from '../db/prepared-query';
import type { DB, UsersTable } from '../db/schema';
import type { SignedInUser } from '../sessions/user-sessions-repository';
import { firstFreeUsername, usernameFromEmail } from './usernames';

export type UserRow = Selectable<UsersTable>;

/** One of an account's latest sign-ins: where from, and on what (a user session's device_info). */
export type RecentSignIn = { ip_address: string | null; device_info: string };

/** How many of an account's latest sign-ins tell a known address block or device. */
const RECENT_SIGN_INS = 50;

export type NewUser = {
  id: string;
  email: string;
  username: string;
  full_name: string;
  phone_number: string | null;
  password_hash: string;
  is_admin: boolean;
  now: number;
};

/**
 * Emails are stored and compared trimmed, lower-cased and in Unicode NFC: 'josé' with a combining
 * accent is the same address as 'josé' with one letter, not a second account that looks the same.
 */
export const normaliseEmail = (email: string) => email.trim().toLowerCase().normalize('NFC');

export function toProfile(row: SignedInUser): Profile {
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    username: row.username,
    phone_number: row.phone_number,
    profile_picture: row.profile_picture,
    is_admin: row.is_admin === 1,
    email_verified: row.email_verified === 1,
    avatar_verified: row.avatar_verified === 1,
    verified: row.verified === 1,
  };
}

export class UsersRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string): Promise<UserRow | undefined> {
    return firstRow(await userById(this.db, { id }));
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    return firstRow(await userByEmail(this.db, { email: normaliseEmail(email) }));
  }

  /** The latest sign-ins of the account with this email, newest first (none for an unknown email). */
  async recentSignIns(email: string): Promise<RecentSignIn[]> {
    return (await recentSignInsByEmail(this.db, { email: normaliseEmail(email) })).rows;
  }

  async adminExists(): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('is_admin', '=', 1).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Writes an account, which becomes the first administrator while none exists. The claim and the
   * account are one transaction, and only one transaction can hold the claim: of registrations
   * racing on a fresh install, one becomes administrator (a read of "none yet" let each of them).
   * `admit` hears whether this one did, and may refuse it by throwing: nothing is written then.
   * Answers whether it became the first administrator.
   */
  async insert(user: NewUser, admit: (firstAdmin: boolean) => void = () => {}): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const firstAdmin = await claimFirstAdmin(tx, user.id, user.now);
      admit(firstAdmin);
      await tx
        .insertInto('users')
        .values({
          id: user.id,
          email: normaliseEmail(user.email),
          username: user.username,
          full_name: user.full_name,
          phone_number: user.phone_number,
          password_hash: user.password_hash,
          is_admin: user.is_admin || firstAdmin ? 1 : 0,
          email_verified: 0,
          avatar_verified: 0,
          verified: 0,
          profile_picture: null,
          created_at: user.now,
          updated_at: user.now,
          last_login: null,
        })
        .execute();
      return firstAdmin;
    });
  }

  /** The username someone registering with this email gets: "jane.doe", else "jane.doe-2"… */
  async freeUsername(email: string): Promise<string> {
    const base = usernameFromEmail(email);
    // LIKE finds a superset ('_' matches any character; SQLite ignores case): the exact test is taken's.
    const rows = await this.db.selectFrom('users').select('username').where('username', 'like', `${base}%`).execute();
    const taken = new Set(rows.map((row) => row.username));
    return firstFreeUsername(base, (name) => taken.has(name));
  }

  /**
   * Stores a new password, voiding mailed reset links (whoever holds one must not undo the change);
   * `alongside` runs in the same commit.
   */
  async setPasswordHash(id: string, passwordHash: string, now: number, alongside?: (tx: Database) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();
      await tx.deleteFrom('password_resets').where('user_id', '=', id).execute();
      await alongside?.(tx);
    });
  }

  /**
   * Marks the account verified if its email and picture still are, in the one statement: an email
   * changed by an administrator since they were read must be proved again. Answers whether it did.
   */
  async markVerified(id: string, now: number): Promise<boolean> {
    const marked = await this.db.updateTable('users').set({ verified: 1, updated_at: now }).where('id', '=', id).where('email_verified', '=', 1).where('avatar_verified', '=', 1).executeTakeFirst();
    return marked.numUpdatedRows === 1n;
  }
}

/**
 * Claims the first administrator's row for `userId` unless an administrator exists, in one
 * statement; answers whether it did. A racing claim on PostgreSQL waits for this transaction and
 * then finds the row taken (ON CONFLICT); SQLite runs one writing transaction at a time.
 */
async function claimFirstAdmin(tx: Transaction<DB>, userId: string, now: number): Promise<boolean> {
  const claim = tx
    .selectNoFrom((eb) => [sql<number>`1`.as('id'), eb.val(userId).as('user_id'), eb.cast<number>(eb.val(now), 'bigint').as('claimed_at')])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('users').select('id').where('is_admin', '=', 1))));
  const claimed = await tx
    .insertInto('first_administrator')
    .columns(['id', 'user_id', 'claimed_at'])
    .expression(claim)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** True when the unique violation is the username's (users.username in SQLite's text, users_username in PostgreSQL's). */
export const isUsernameTaken = (error: unknown) => isUniqueViolation(error) && /\busers[._]username\b/.test(String((error as { message?: unknown }).message));

// Every sign-in and code request runs these: compiled once (see preparedQuery).
const userById = preparedQuery((db, value) => db.selectFrom('users').selectAll().where('id', '=', value<string>('id')));
const userByEmail = preparedQuery((db, value) => db.selectFrom('users').selectAll().where('email', '=', value<string>('email')));
// Read once a sign-in, for the throttle's known address blocks and the new-device notice both.
const recentSignInsByEmail = preparedQuery((db, value) =>
  db
    .selectFrom('user_sessions')
    .innerJoin('users', 'users.id', 'user_sessions.user_id')
    .select(['user_sessions.ip_address', 'user_sessions.device_info'])
    .where('users.email', '=', value<string>('email'))
    .orderBy('user_sessions.issued_at', 'desc')
    .limit(RECENT_SIGN_INS),
);
