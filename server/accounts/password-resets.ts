import { randomInt } from 'node:crypto';
import { setTimeout as after } from 'node:timers/promises';
import type { AuditLog, AuditSource } from '../audit/audit-log';
import type { BackgroundWork } from '../operations/background-work';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import { passwordResetMail } from '../mail/password-reset-mail';
import type { Mailer } from '../mail/mailer';
import { hashToken, newOpaqueToken } from '../sessions/tokens';
import { addressBlock } from '../throttle/address-block';
import { rethrowAs, type FailureThrottle, type ThrottleRule } from '../throttle/failure-throttle';
import type { AccountsService } from './accounts-service';
import type { SignIn } from './sign-in';
import { refuseCommonPassword } from './common-passwords';
import { normaliseEmail, type UsersRepository } from './users-repository';

export const RESET_LINK_MINUTES = 30;

/** Reset mails asked for, per address and per client, before more are refused for a while. */
export const RESET_THROTTLE = {
  // And a day's: without it, anyone could have 288 mails a day sent to someone's address.
  accountDay: { limit: 10, windowSeconds: 24 * 3600 },
  account: { limit: 3, windowSeconds: 15 * 60 },
  address: { limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>;

/**
 * How long after the answer the link is mailed, at random (ms): begun at once, the mail's work
 * slowed the request the asker sent next by a millisecond or two, only for an address with an
 * account; that told four in five apart (attacker audit, 2026-12-05).
 */
export const RESET_MAIL_DELAY_MS: readonly [min: number, max: number] = [500, 3_000];

/**
 * "Forgot password?": a link mailed to the account's address sets a new password. The answer to
 * a request is the same whether or not the address has an account, and comes before the mail is
 * sent, so neither the words nor the time tell. The token is in the link only; it works once.
 */
export class PasswordResets {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsService,
    private readonly signIn: SignIn,
    private readonly throttle: FailureThrottle,
    private readonly mailer: Mailer,
    private readonly options: { publicUrl: string; log: FastifyBaseLogger; audit: AuditLog; background: BackgroundWork; mailDelayMs: readonly [min: number, max: number] },
    private readonly clock: () => number,
  ) {}

  /** `source`: whoever asked, from where (no account: it need not be the owner). */
  async request(email: string, source: AuditSource): Promise<void> {
    const ip = source.client?.ip;
    const keys: Array<[string, ThrottleRule]> = [
      [`reset:account-day:${normaliseEmail(email)}`, RESET_THROTTLE.accountDay],
      [`reset:account:${normaliseEmail(email)}`, RESET_THROTTLE.account],
      [`reset:address:${addressBlock(ip)}`, RESET_THROTTLE.address],
    ];
    await this.throttle.count(keys).catch(rethrowAs(AppError.resetsAskedTooOften)); // every request counts, found or not, and before it is served
    const user = await this.users.findByEmail(email);
    // A disabled account gets no link, as Keycloak does: its owner is answered as anyone else.
    // Begun well after the answer has left, at a time the asker cannot know.
    if (user && user.disabled_at === null) {
      const [min, max] = this.options.mailDelayMs;
      const mailed = after(randomInt(min, max + 1)).then(() => this.mailLink(user, source));
      this.options.background.start(mailed, (error) => this.options.log.error({ err: error, userId: user.id }, 'the password reset mail could not be sent'));
    }
  }

  private async mailLink(user: { id: string; email: string; full_name: string; email_verified: number }, source: AuditSource): Promise<void> {
    const now = this.clock();
    const token = newOpaqueToken();
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('password_resets').where('user_id', '=', user.id).execute(); // one live link per account
      await tx.insertInto('password_resets').values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + RESET_LINK_MINUTES * 60_000 }).execute();
      // Recorded with the link, so the owner sees under Recent Activity that one was asked for, and from where.
      await this.options.audit.record({ kind: 'password-reset-requested', userId: user.id }, source, tx);
    });
    // The fragment keeps the token out of server logs and Referer headers.
    const delivery = await this.mailer.send(passwordResetMail(user.email, user.email_verified === 1 ? user.full_name : undefined, `${this.options.publicUrl}/auth/reset-password#${token}`, RESET_LINK_MINUTES));
    if (delivery.outboxFile) this.options.log.info({ userId: user.id, file: delivery.outboxFile }, 'no SMTP_URL: the password reset mail was written to the outbox');
  }

  /**
   * Sets the new password of the link's account, which is then signed out everywhere; answers the
   * account's ID, and whether a second step set up before the email was proved was turned off.
   */
  async confirm(token: string, password: string): Promise<{ userId: string; twoStepOff: boolean }> {
    refuseCommonPassword(password); // before the link is used up: it may be tried again with another
    // Used up, in one statement, before the password is set: of two tabs sending the same link, one wins.
    const used = await this.db.deleteFrom('password_resets').where('token_hash', '=', hashToken(token)).where('expires_at', '>', this.clock()).returning('user_id').executeTakeFirst();
    if (!used) throw AppError.resetLinkInvalid();
    const user = await this.users.findById(used.user_id);
    if (!user) throw AppError.resetLinkInvalid();
    // A link mailed just as the account was disabled: whoever holds it holds the mailbox, so saying why is safe.
    if (user.disabled_at !== null) throw AppError.accountDisabled();
    await this.accounts.setPassword(user.id, password, 'reset-by-link');
    // Whoever holds the mailbox may sign in again at once, even after failed guesses.
    await this.signIn.forgetFailedSignIns(user.email);
    return { userId: user.id, twoStepOff: await this.accounts.dropUnprovenSecondStep(user) };
  }
}
