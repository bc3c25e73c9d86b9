import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Profile } from '../../contract/accounts';
import type { VerificationStatus } from '../../contract/verification';
import { isUniqueViolation } from '../db/constraint-violations';
import { AppError } from '../errors';
import { PASSWORD_NOTICES, type PasswordChange } from '../mail/password-changed-mail';
import type { Notify } from '../mail/security-notice';
import { logRefusedAttempt } from '../operations/refused-attempts';
import type { ServiceSessionsRepository } from '../oauth/service-sessions-repository';
import type { Authenticated, UserSessionsService } from '../sessions/user-sessions-service';
import { addressBlock } from '../throttle/address-block';
import type { FailureThrottle, ThrottleRule } from '../throttle/failure-throttle';
import type { AuthenticatorApps } from '../two-step/authenticator-apps';
import { hashPassword } from './passwords';
import { secondStepThrottle, type SignIn } from './sign-in';
import { isUsernameTaken, toProfile, type UserRow, type UsersRepository } from './users-repository';
import { refuseCommonPassword } from './common-passwords';

/**
 * Registrations answered "email is already registered" allowed per address block before every
 * registration from there is refused for a while: each such answer tells that an account exists.
 */
export const REGISTER_THROTTLE: ThrottleRule = { limit: 10, windowSeconds: 10 * 60 };

/** The one answer REGISTER_THROTTLE counts. */
const isEmailTaken = (error: unknown) => error instanceof AppError && error.message === AppError.emailTaken().message;

export type Registration = { full_name: string; email: string; phone_number?: string | undefined; password: string };

export class AccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: UserSessionsService,
    private readonly serviceSessions: ServiceSessionsRepository,
    private readonly throttle: FailureThrottle,
    private readonly authenticatorApps: AuthenticatorApps,
    private readonly signIn: SignIn,
    private readonly options: { registration: 'open' | 'closed'; log: FastifyBaseLogger; notify: Notify },
    private readonly clock: () => number,
  ) {}

  /** Whether anyone may register now: with REGISTRATION=closed, only until an administrator exists. */
  async registrationOpen(): Promise<boolean> {
    return this.options.registration === 'open' || !(await this.users.adminExists());
  }

  /**
   * Registration from the sign-up form. Taken emails are counted per address block, the other
   * answers taken back, so successful sign-ups are never slowed. Past the limit every registration
   * from there is refused for a while: refusing only taken emails would still tell them apart.
   */
  async signUp(input: Registration, ip: string | undefined): Promise<{ id: string }> {
    const keys: Array<[string, ThrottleRule]> = [[`register:address:${addressBlock(ip)}`, REGISTER_THROTTLE]];
    const throttled = () => logRefusedAttempt(this.options.log, { attempt: 'registration', reason: 'throttled', ip });
    return this.throttle.judge(
      keys,
      async (attempt) => {
        try {
          const created = await this.register(input);
          await attempt.forgive();
          return created;
        } catch (error) {
          if (!isEmailTaken(error)) await attempt.forgive();
          throw error;
        }
      },
      throttled,
    );
  }

  /**
   * Creates an account, with the username given or else one made from the email. While no
   * administrator exists, the new account becomes one; of registrations at once, only one does.
   */
  async register(input: Registration & { username?: string }, as: { admin?: boolean; bypassClosedRegistration?: boolean } = {}): Promise<{ id: string }> {
    const closed = this.options.registration === 'closed' && !as.bypassClosedRegistration;
    // Refused before the password is hashed; decided again as the account is written (a race to be first).
    if (closed && (await this.users.adminExists())) throw AppError.registrationClosed();
    refuseCommonPassword(input.password);
    if (await this.users.findByEmail(input.email)) throw AppError.emailTaken();
    const id = randomUUID();
    const passwordHash = await hashPassword(input.password);
    const admit = (firstAdmin: boolean) => {
      if (closed && !firstAdmin) throw AppError.registrationClosed();
    };
    let firstAdmin = false;
    for (let attempt = 1; ; attempt++) {
      try {
        firstAdmin = await this.users.insert(
          {
            id,
            email: input.email,
            username: input.username ?? (await this.users.freeUsername(input.email)),
            full_name: input.full_name,
            phone_number: input.phone_number ?? null,
            password_hash: passwordHash,
            is_admin: as.admin === true,
            now: this.clock(),
          },
          admit,
        );
        break;
      } catch (error) {
        if (isUsernameTaken(error)) {
          // A made-up username can lose a race with someone registering alike: make the next one.
          if (!input.username && attempt < 5) continue;
          throw AppError.usernameTaken();
        }
        // Two registrations of one email raced past the check above.
        if (isUniqueViolation(error)) throw AppError.emailTaken();
        throw error;
      }
    }
    if (firstAdmin && !as.admin) this.options.log.info({ userId: id }, 'no administrator existed: the new account is the administrator');
    return { id };
  }

  /**
   * After a reset by mail of an account whose email was never proved: it may have been someone
   * else's registration of the address, and a second step they set up would keep the mailbox's
   * owner out still. Only one set up while the email was unproved: an email is unproved also
   * when an administrator changed it, and the second step its owner set up stays. Answers
   * whether one was turned off.
   */
  async dropUnprovenSecondStep(user: UserRow): Promise<boolean> {
    if (user.email_verified === 1) return false;
    return (await this.authenticatorApps.turnOff(user, 'self', 'set-up-unproved')).wasOn;
  }

  async profile(userId: string): Promise<Profile> {
    const user = await this.users.findById(userId);
    if (!user) throw AppError.invalidToken();
    return toProfile(user);
  }

  async verificationStatus(userId: string): Promise<VerificationStatus> {
    const { email_verified, avatar_verified, verified, profile_picture } = await this.profile(userId);
    return { email_verified, avatar_verified, verified, profile_picture };
  }

  /** The last verification step: allowed once the email and the picture are both verified. */
  async completeVerification(userId: string): Promise<VerificationStatus> {
    const status = await this.verificationStatus(userId);
    if (!status.email_verified || !status.avatar_verified) throw AppError.verificationIncomplete();
    if (!status.verified && !(await this.users.markVerified(userId, this.clock()))) throw AppError.verificationIncomplete();
    return { ...status, verified: true };
  }

  /** Sets a new password and ends every session of the account, at its services too (the command line's reset); answers the account's ID. */
  async resetPassword(email: string, password: string): Promise<string> {
    const { id } = await this.accountByEmail(email);
    await this.setPassword(id, password, 'set-by-administrator');
    return id;
  }

  /** The account with this email, for the command line; a clear error when there is none. */
  async accountByEmail(email: string): Promise<UserRow> {
    const user = await this.users.findByEmail(email);
    if (!user) throw AppError.notFound('account');
    return user;
  }

  /**
   * The signed-in person changes their password, proving it is them with the current one (ASVS
   * 2.1.5, 2.1.6). Wrong guesses are throttled as sign-ins are; their other sessions and their services' sessions end.
   */
  async changePassword(auth: Authenticated, currentPassword: string, password: string, ip: string | undefined): Promise<void> {
    refuseCommonPassword(password); // before the current one is judged, which forgives failed guesses
    await this.signIn.provePassword(auth, currentPassword, ip);
    await this.setPassword(auth.userId, password, 'changed', auth.sessionId);
  }

  /**
   * Sets a new password, ends every session of the account but `keepSessionId` and every service
   * session (ASVS 3.3.3: whoever had the old password keeps no service either), and tells the owner by mail.
   */
  async setPassword(userId: string, password: string, how: PasswordChange, keepSessionId?: string): Promise<void> {
    refuseCommonPassword(password);
    const passwordHash = await hashPassword(password);
    const now = this.clock();
    // One commit: a new password stored with the sign-outs left undone (a failure or a kill
    // between them) left whoever had the old one signed in, and the old one no longer worked.
    await this.users.setPasswordHash(userId, passwordHash, now, async (tx) => {
      await this.sessions.revokeAllForUser(userId, keepSessionId, tx);
      // After the user sessions: a code asked for from one of them can then no longer open a service session.
      await this.serviceSessions.revokeAllForUser(userId, now, tx);
    });
    // Whoever guessed at the second step with the old password has to start again.
    await this.throttle.reset(secondStepThrottle(userId)[0]);
    const owner = await this.users.findById(userId);
    if (owner) this.options.notify(owner, PASSWORD_NOTICES[how]);
  }
}
