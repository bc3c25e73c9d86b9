import { createHash, randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { OTP_LENGTH, OTP_LIFETIME_MINUTES } from '../../contract/verification';
import type { UsersRepository } from '../accounts/users-repository';
import { sameBytes } from '../constant-time';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import { verificationCodeMail } from '../mail/verification-code-mail';
import type { Mailer } from '../mail/mailer';
import { rethrowAs, type FailureThrottle, type ThrottleRule } from '../throttle/failure-throttle';
import { addressBlock } from '../throttle/address-block';

export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_AFTER_SECONDS = 60;

/**
 * Codes mailed per account: one a minute alone still let anyone cycle codes all day, guessing
 * 5 times each and mailing an address that may be someone else's 1,440 times.
 */
export const CODES_SENT = {
  day: { limit: 20, windowSeconds: 24 * 3600 },
  hour: { limit: 5, windowSeconds: 3600 },
  // From one address (or /64), for all the accounts it registered: each account's own limits let
  // one address have some 28,800 mails a day sent to the strangers whose addresses it registered.
  address: { limit: 20, windowSeconds: 3600 },
} satisfies Record<string, ThrottleRule>;

/** Wrong codes per account a day, whichever codes they were typed for: 20 guesses of a million. */
export const WRONG_CODES = { limit: 20, windowSeconds: 24 * 3600 } satisfies ThrottleRule;

// The day's limit comes first: when both are reached, its longer wait is the one told.
const sentKeys = (userId: string, ip: string): Array<[string, ThrottleRule]> => [
  [`email-code:sent-day:${userId}`, CODES_SENT.day],
  [`email-code:sent-hour:${userId}`, CODES_SENT.hour],
  [`email-code:sent-address:${addressBlock(ip)}`, CODES_SENT.address],
];
const wrongKey = (userId: string): [string, ThrottleRule] => [`email-code:wrong:${userId}`, WRONG_CODES];

/** A slot claimed for a code whose mail has not gone yet: no code matches it, and it has expired. */
const NO_CODE_YET = '';

// Bound to the user, so a code hash is useless for any other account.
const hashCode = (userId: string, code: string) => createHash('sha256').update(`${userId}:${code}`).digest();

/**
 * Email verification with one-time codes: 6 digits, stored hashed, 10 minutes, 5 attempts.
 * Only the newest code works; `created_at` of an account's row is when it last asked for one.
 */
export class EmailCodes {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly throttle: FailureThrottle,
    private readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number,
  ) {}

  /** Mails a new code to the account's address, asked for from `ip`; the previous code dies once it has gone. */
  async send(userId: string, ip: string): Promise<void> {
    const now = this.clock();
    const user = await this.users.findById(userId);
    if (!user) throw AppError.invalidToken();
    if (user.email_verified === 1) throw AppError.alreadyVerified('Your email');
    // No use mailing a code that could not be typed.
    await this.throttle.check([wrongKey(userId)]).catch(rethrowAs(AppError.codeGuessesUsedUp));
    const previous = await this.db.selectFrom('email_otps').select('created_at').where('user_id', '=', userId).executeTakeFirst();
    // One "sent" after now was sent while the clock ran fast: it does not hold the next one back.
    const resendAt = previous && previous.created_at <= now ? previous.created_at + RESEND_AFTER_SECONDS * 1000 : 0;
    if (resendAt > now) throw AppError.resendTooSoon((resendAt - now) / 1000);
    if (!(await this.claim(userId, now))) throw AppError.resendTooSoon(RESEND_AFTER_SECONDS);
    const giveBack = () => this.giveBack(userId, now, previous?.created_at ?? 0);

    const sent = await this.throttle.count(sentKeys(userId, ip)).catch(async (error: unknown) => {
      await giveBack();
      return rethrowAs(AppError.codesSentTooOften)(error);
    });
    const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
    let delivery: { outboxFile?: string };
    try {
      delivery = await this.mailer.send(verificationCodeMail(user.email, code, OTP_LIFETIME_MINUTES));
    } catch (error) {
      this.log.error({ err: error, userId }, 'the verification mail could not be sent');
      await sent.forgive();
      await giveBack();
      throw AppError.mailFailed();
    }
    if (delivery.outboxFile) this.log.info({ userId, file: delivery.outboxFile }, `no SMTP_URL: verification code ${code} for ${user.email} written to the outbox`);

    // Only now does the new code replace the old one. A row gone meanwhile was verified (or its address changed): nothing to store.
    await this.db
      .updateTable('email_otps')
      .set({ code_hash: hashCode(userId, code).toString('base64'), expires_at: now + OTP_LIFETIME_MINUTES * 60_000, attempts: 0 })
      .where('user_id', '=', userId)
      .where('created_at', '=', now)
      .execute();
  }

  /**
   * Takes the minute's slot in one statement, leaving any earlier code as it is: of parallel
   * requests (on any replica) only the first finds the last one a minute old, the others wait
   * for it and then find it new.
   */
  private async claim(userId: string, now: number): Promise<boolean> {
    const claimed = await this.db
      .insertInto('email_otps')
      .values({ user_id: userId, code_hash: NO_CODE_YET, created_at: now, expires_at: 0, attempts: 0 })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ created_at: now })
          .where((eb) => eb.or([eb('email_otps.created_at', '<=', now - RESEND_AFTER_SECONDS * 1000), eb('email_otps.created_at', '>', now)])),
      )
      .executeTakeFirst();
    return claimed.numInsertedOrUpdatedRows === 1n;
  }

  /** A claim that sent nothing: the row is as it was, so the person may ask again at once and a code mailed before still works. */
  private async giveBack(userId: string, claimedAt: number, previousAt: number): Promise<void> {
    await this.db.deleteFrom('email_otps').where('user_id', '=', userId).where('created_at', '=', claimedAt).where('code_hash', '=', NO_CODE_YET).execute();
    await this.db.updateTable('email_otps').set({ created_at: previousAt }).where('user_id', '=', userId).where('created_at', '=', claimedAt).execute();
  }

  /**
   * Checks a code; the right one marks the email verified and is used up. An email verified
   * meanwhile (in another tab, or by the other half of a double submit) is answered as verified,
   * not with the code's refusal: the page then moves on instead of offering a new code it refuses.
   */
  async confirm(userId: string, code: string): Promise<void> {
    const verified = async () => (await this.users.findById(userId))?.email_verified === 1;
    if (await verified()) return;
    try {
      await this.check(userId, code);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 400 && (await verified())) return;
      throw error;
    }
  }

  private async check(userId: string, code: string): Promise<void> {
    const now = this.clock();
    // Told first: asking for a new code would not help.
    await this.throttle.check([wrongKey(userId)]).catch(rethrowAs(AppError.codeGuessesUsedUp));
    const row = await this.db.selectFrom('email_otps').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row || row.expires_at <= now) throw AppError.codeExpired();
    if (row.attempts >= CODE_MAX_ATTEMPTS) throw AppError.codeUsedUp();
    // Count the attempt first and atomically, so parallel guesses cannot exceed the limit.
    const counted = await this.db
      .updateTable('email_otps')
      .set({ attempts: row.attempts + 1 })
      .where('user_id', '=', userId)
      .where('attempts', '=', row.attempts)
      .executeTakeFirst();
    if (counted.numUpdatedRows !== 1n) {
      // Another guess was counted meanwhile, this one not: it is judged against the row as it is now.
      // The same code sent twice (a double submit) is then told verified once the first is done,
      // not "wrong" while the first is still writing. Each loss means another guess counted, so
      // this ends within CODE_MAX_ATTEMPTS rounds.
      return this.check(userId, code);
    }
    // Then against the day's limit, before it is judged, so parallel guesses cannot pass that
    // either. Only guesses the code took get here: counted before, thirty guesses sent at once
    // each counted one for a moment, and some were told the day's twenty were used up.
    const guess = await this.throttle.count([wrongKey(userId)]).catch(rethrowAs(AppError.codeGuessesUsedUp));
    if (!sameBytes(hashCode(userId, code), Buffer.from(row.code_hash, 'base64'))) {
      throw row.attempts + 1 >= CODE_MAX_ATTEMPTS ? AppError.codeUsedUp() : AppError.codeWrong();
    }
    await guess.forgive();
    await this.db.transaction().execute(async (tx) => {
      // This code's row, used up. Gone already, the email changed since the code was mailed (a
      // change deletes the codes of the old address): the new one is not proved by it.
      const used = await tx.deleteFrom('email_otps').where('user_id', '=', userId).where('created_at', '=', row.created_at).executeTakeFirst();
      if (used.numDeletedRows !== 1n) throw AppError.codeExpired();
      await tx.updateTable('users').set({ email_verified: 1, updated_at: now }).where('id', '=', userId).execute();
    });
  }
}
