import { randomUUID } from 'node:crypto';
import type { OwnSession, RefreshResponse } from '../../contract/accounts';
import type { ReusedToken } from '../../contract/audit';
import { isForeignKeyViolation } from '../db/constraint-violations';
import type { AuditLog } from '../audit/audit-log';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import type { AccessTokens } from './access-tokens';
import { deviceInfoFromUserAgent, sameDevice } from './device-info';
import { newSplitToken } from './tokens';
import type { SignedInUser, UserSessionsRepository } from './user-sessions-repository';

export type Authenticated = { userId: string; sessionId: string; isAdmin: boolean; user: SignedInUser };
export type ClientInfo = { userAgent: string | undefined; ip: string | undefined };

/**
 * How a sign-in proved who it was, kept with its session for the ID tokens of services signed in
 * through it: OIDC's `amr` (RFC 8176), space-separated. A recovery code is a one-time password too.
 */
export const SIGN_IN_METHODS = { password: 'pwd', passwordAndCode: 'pwd otp mfa' } as const;
export type SignInMethods = (typeof SIGN_IN_METHODS)[keyof typeof SIGN_IN_METHODS];

export type SessionPolicy = {
  /** A session not used for this long ends. */
  refreshTokenTtlSeconds: number;
  /** A session ends this long after its sign-in, however much it is used. */
  sessionMaxAgeSeconds: number;
  /** A rotated token may be presented again this long after, when its answer was lost. */
  refreshGraceSeconds: number;
};

/** User sessions: one per sign-in, carried by an access token and a rotating refresh token. */
export class UserSessionsService {
  constructor(
    private readonly sessions: UserSessionsRepository,
    private readonly accessTokens: AccessTokens,
    private readonly policy: SessionPolicy,
    private readonly audit: AuditLog,
    private readonly clock: () => number,
  ) {}

  /**
   * A sign-in: opens a session (and records it as the user's last sign-in). `newDevice`: its
   * device_info, when its browser and system are not those of any of the account's latest
   * sign-ins, whose devices are `earlier` (an account's first sign-in is not counted as one);
   * otherwise null.
   */
  async start(userId: string, client: ClientInfo, amr: SignInMethods, earlier: readonly string[]): Promise<RefreshResponse & { sessionId: string; newDevice: string | null }> {
    const now = this.clock();
    const sessionId = randomUUID();
    const refresh = newSplitToken(now);
    const device = deviceInfoFromUserAgent(client.userAgent);
    const opened = this.sessions.insert(
      {
        id: sessionId,
        user_id: userId,
        device_info: device,
        ip_address: client.ip ?? null,
        issued_at: now,
        expires_at: this.expiry(now, now),
        last_active: now,
        revoked_at: null,
        amr,
      },
      refresh,
    );
    // An account deleted by an administrator since its password was checked: no account, as an unknown one is answered.
    await opened.catch((error: unknown) => {
      throw isForeignKeyViolation(error) ? AppError.invalidCredentials() : error;
    });
    const newDevice = earlier.length > 0 && !earlier.some((seen) => sameDevice(seen, device)) ? device : null;
    return { sessionId, newDevice, refresh: refresh.token, access: await this.accessTokens.issue({ userId, sessionId }) };
  }

  /**
   * Exchanges a refresh token for a new pair. A token used twice means it was copied: the whole
   * session is revoked, unless the second use comes within the grace window and the first
   * answer's token was never used (the answer was lost on the way).
   */
  async refresh(refreshToken: string, client?: ClientInfo): Promise<RefreshResponse> {
    const now = this.clock();
    const token = await this.sessions.findTokenInSession(refreshToken);
    if (!token || token.session_revoked_at !== null || token.session_expires_at <= now) throw AppError.invalidToken();
    const sessionId = token.session_id;
    const presented = token.token_key;

    const expiresAt = this.expiry(now, token.session_issued_at);
    // Ended by a SESSION_MAX_AGE lowered since it was stored: no tokens that could not work.
    if (expiresAt <= now) throw AppError.invalidToken();
    const next = newSplitToken(now);
    let issued = token.rotated_at === null && (await this.sessions.rotateToken(presented, next, sessionId, now, expiresAt));
    if (!issued) issued = await this.sessions.replaceUnusedSuccessor(presented, this.policy.refreshGraceSeconds * 1000, next, sessionId, now, expiresAt);
    if (!issued) {
      // Already ended (a sign-out or a revoke racing this refresh withdrew the token): no copy was
      // used, and no one is told one was. Nor twice, when two copies come at once.
      if (await this.sessions.revoke(sessionId, now)) {
        await this.audit.record({ kind: 'token-reused', userId: token.user_id, detail: 'refresh-token' satisfies ReusedToken }, { actorId: null, client });
      }
      throw AppError.invalidToken();
    }
    return { refresh: next.token, access: await this.accessTokens.issue({ userId: token.user_id, sessionId }) };
  }

  /** Each use pushes the end of a session on, up to its maximum age. */
  private expiry(now: number, issuedAt: number): number {
    return Math.min(now + this.policy.refreshTokenTtlSeconds * 1000, issuedAt + this.policy.sessionMaxAgeSeconds * 1000);
  }

  /**
   * Signing out: the session of this refresh token ends (an unknown token changes nothing).
   * Answers whose session it ended, or null when it had already ended.
   */
  async endByRefreshToken(refreshToken: string): Promise<string | null> {
    const token = await this.sessions.findTokenInSession(refreshToken);
    if (!token || !(await this.sessions.revoke(token.session_id, this.clock()))) return null;
    return token.user_id;
  }

  /** Checks an access token against its signature, expiry, the live session and the user. */
  async authenticate(accessToken: string): Promise<Authenticated> {
    const claims = await this.accessTokens.verify(accessToken);
    if (!claims) throw AppError.invalidToken();
    const user = await this.sessions.findUserOfLiveSession(claims.sessionId, claims.userId, this.clock());
    if (!user) throw AppError.invalidToken();
    return { ...claims, isAdmin: user.is_admin === 1, user };
  }

  /** Where the person is signed in: this device first, then the most recently active (up to 100). */
  async ownSessions(auth: Authenticated): Promise<OwnSession[]> {
    const rows = await this.sessions.liveSessionsOfUser(auth.userId, this.clock(), 100);
    return rows
      .map((row) => ({
        id: row.id,
        device_info: row.device_info,
        ip_address: row.ip_address,
        issued_at: new Date(Number(row.issued_at)).toISOString(),
        last_active: new Date(Number(row.last_active)).toISOString(),
        current: row.id === auth.sessionId,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current));
  }

  /** Signs the person out on another of their devices, and out of the services signed in to there; this device signs out from Home instead. */
  async endOwnSession(auth: Authenticated, sessionId: string): Promise<void> {
    if (sessionId === auth.sessionId) throw AppError.thisDevice();
    const session = await this.sessions.findById(sessionId);
    // Someone else's session is "not found" too: ids say nothing about other accounts.
    if (!session || session.user_id !== auth.userId || session.revoked_at !== null) throw AppError.notFound('session');
    await this.sessions.revoke(sessionId, this.clock(), true);
  }

  /** Signs the person out everywhere but this device (a stranger may hold another), and out of the services signed in to there; answers how many. */
  endOtherOwnSessions(auth: Authenticated): Promise<number> {
    return this.sessions.revokeAllForUser(auth.userId, this.clock(), auth.sessionId);
  }

  /** As the repository's; `db`, a transaction of the caller's, makes it part of that. */
  revokeAllForUser(userId: string, exceptSessionId?: string, db?: Database): Promise<number> {
    return this.sessions.revokeAllForUser(userId, this.clock(), exceptSessionId, db);
  }
}
