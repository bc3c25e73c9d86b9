import type { FastifyBaseLogger } from 'fastify';
import type { TwoStepSetup, TwoStepStatus } from '../../contract/two-step';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { twoStepChangedMail, type TwoStepChange } from '../mail/two-step-mail';
import { matchingStep, newTotpSecret, otpauthUri } from './totp';

export type SignInCheck = 'not-needed' | 'accepted' | 'missing' | 'wrong' | 'reused';

/** Whose second step changes: the person is mailed about it. */
type Person = { id: string; email: string; full_name: string };

/**
 * Two-step sign-in with an authenticator app. A person's app and Home Guard share a secret; each
 * code works once, and never one older than the last accepted (RFC 6238 §5.2).
 */
export class AuthenticatorApps {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number,
  ) {}

  async status(userId: string): Promise<TwoStepStatus> {
    const app = await this.db.selectFrom('authenticator_apps').select('created_at').where('user_id', '=', userId).executeTakeFirst();
    return { enabled: app !== undefined, since: app ? new Date(Number(app.created_at)).toISOString() : null };
  }

  /** A new secret for the person to add to their app; stored only once `turnOn` gets a code made from it. */
  setup(email: string): TwoStepSetup {
    const secret = newTotpSecret();
    return { secret, uri: otpauthUri(secret, email, 'Home Guard') };
  }

  async turnOn(person: Person, secret: string, code: string): Promise<TwoStepStatus> {
    const now = this.clock();
    const step = matchingStep(secret, code, now);
    if (step === undefined) throw AppError.authenticatorCodeWrong(400);
    // The code that turned it on is used up: it cannot also sign in.
    const added = await this.db
      .insertInto('authenticator_apps')
      .values({ user_id: person.id, secret, last_used_step: step, created_at: now })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .executeTakeFirst();
    if (added.numInsertedOrUpdatedRows !== 1n) throw AppError.twoStepAlreadyOn();
    this.tell(person, 'turned-on');
    return this.status(person.id);
  }

  async turnOff(person: Person, by: 'self' | 'administrator'): Promise<TwoStepStatus> {
    const removed = await this.db.deleteFrom('authenticator_apps').where('user_id', '=', person.id).executeTakeFirst();
    if (removed.numDeletedRows > 0n) this.tell(person, by === 'self' ? 'turned-off' : 'turned-off-by-administrator');
    return { enabled: false, since: null };
  }

  /** Not awaited: the change is made whether or not the mail goes out. */
  private tell(person: Person, change: TwoStepChange): void {
    this.mailer.send(twoStepChangedMail(person.email, person.full_name, change)).catch((error: unknown) => this.log.error({ err: error, userId: person.id }, 'the two-step sign-in mail could not be sent'));
  }

  /** Checks a sign-in's code, after its password was right. An accepted code is used up at once. */
  async checkSignIn(userId: string, code: string | undefined): Promise<SignInCheck> {
    const app = await this.db.selectFrom('authenticator_apps').select(['secret', 'last_used_step']).where('user_id', '=', userId).executeTakeFirst();
    if (!app) return 'not-needed';
    if (code === undefined) return 'missing';
    const step = matchingStep(app.secret, code, this.clock());
    if (step === undefined) return 'wrong';
    if (step <= Number(app.last_used_step)) return 'reused';
    // Conditional, so of two sign-ins racing with one code only one gets it.
    const used = await this.db
      .updateTable('authenticator_apps')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where('last_used_step', '<', step)
      .executeTakeFirst();
    return used.numUpdatedRows === 1n ? 'accepted' : 'reused';
  }
}
