import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { UsersRepository } from '../accounts/users-repository';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import { verificationCodeMail } from '../mail/verification-code-mail';
import type { Mailer } from '../mail/mailer';

export const CODE_LENGTH = 6;
export const CODE_LIFETIME_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_AFTER_SECONDS = 60;

// Bound to the user, so a code hash is useless for any other account.
const hashCode = (userId: string, code: string) => createHash('sha256').update(`${userId}:${code}`).digest();

/** Email verification with one-time codes: 6 digits, stored hashed, 10 minutes, 5 attempts. */
export class EmailCodes {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number,
  ) {}

  /** Mails a new code to the account's address; the previous code dies. */
  async send(userId: string): Promise<void> {
    const now = this.clock();
    const user = await this.users.findById(userId);
    if (!user) throw AppError.invalidToken();
    if (user.email_verified === 1) throw AppError.alreadyVerified('Your email');
    const previous = await this.db.selectFrom('email_otps').select('created_at').where('user_id', '=', userId).executeTakeFirst();
    const resendAt = (previous?.created_at ?? 0) + RESEND_AFTER_SECONDS * 1000;
    if (resendAt > now) throw AppError.resendTooSoon((resendAt - now) / 1000);

    const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
    // The code is issued only once the mail is on its way.
    let delivery: { outboxFile?: string };
    try {
      delivery = await this.mailer.send(verificationCodeMail(user.email, user.full_name, code, CODE_LIFETIME_MINUTES));
    } catch (error) {
      this.log.error({ err: error, userId }, 'the verification mail could not be sent');
      throw AppError.mailFailed();
    }
    if (delivery.outboxFile) this.log.info({ userId, file: delivery.outboxFile }, `no SMTP_URL: verification code ${code} for ${user.email} written to the outbox`);

    const row = { user_id: userId, code_hash: hashCode(userId, code).toString('base64'), created_at: now, expires_at: now + CODE_LIFETIME_MINUTES * 60_000, attempts: 0 };
    await this.db
      .insertInto('email_otps')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ code_hash: row.code_hash, created_at: now, expires_at: row.expires_at, attempts: 0 }))
      .execute();
  }

  /** Checks a code; the right one marks the email verified and is used up. */
  async confirm(userId: string, code: string): Promise<void> {
    const now = this.clock();
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
    if (counted.numUpdatedRows !== 1n) throw AppError.codeWrong();
    if (!timingSafeEqual(hashCode(userId, code), Buffer.from(row.code_hash, 'base64'))) {
      throw row.attempts + 1 >= CODE_MAX_ATTEMPTS ? AppError.codeUsedUp() : AppError.codeWrong();
    }
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('email_otps').where('user_id', '=', userId).execute();
      await tx.updateTable('users').set({ email_verified: 1, updated_at: now }).where('id', '=', userId).execute();
    });
  }
}
