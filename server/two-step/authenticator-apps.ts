import type { TwoStepSetup, TwoStepStatus } from '../../contract/two-step';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import { matchingStep, newTotpSecret, otpauthUri } from './totp';

export type SignInCheck = 'not-needed' | 'accepted' | 'missing' | 'wrong' | 'reused';

/**
 * Two-step sign-in with an authenticator app. A person's app and Home Guard share a secret; each
 * code works once, and never one older than the last accepted (RFC 6238 §5.2).
 */
export class AuthenticatorApps {
  constructor(
    private readonly db: Database,
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

  async turnOn(userId: string, secret: string, code: string): Promise<TwoStepStatus> {
    const now = this.clock();
    const step = matchingStep(secret, code, now);
    if (step === undefined) throw AppError.authenticatorCodeWrong(400);
    // The code that turned it on is used up: it cannot also sign in.
    const added = await this.db
      .insertInto('authenticator_apps')
      .values({ user_id: userId, secret, last_used_step: step, created_at: now })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .executeTakeFirst();
    if (added.numInsertedOrUpdatedRows !== 1n) throw AppError.twoStepAlreadyOn();
    return this.status(userId);
  }

  async turnOff(userId: string): Promise<TwoStepStatus> {
    await this.db.deleteFrom('authenticator_apps').where('user_id', '=', userId).execute();
    return { enabled: false, since: null };
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
