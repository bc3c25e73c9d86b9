import type { Vault } from '../vault/vault';

/**
 * How long signing out waits for the server to end the session (under the page's 8 s check on the
 * worker): a server or proxy that never answered kept the account on the device, and the person
 * signed in, for as long as the connection stayed open.
 */
const LOGOUT_WAIT_MS = 5_000;
/**
 * A queued logout older than this names a session that has ended by itself: the server's
 * REFRESH_TOKEN_TTL by default, and the token was not used to refresh once it was queued.
 */
export const QUEUED_LOGOUT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const FLUSH_LOCK = 'guard-pending-logouts';

/**
 * Whether the server took a logout: any HTTP answer but a busy (429) or failing (5xx) one. A 401
 * is taken too: the session has ended already.
 */
const taken = (answer: Response | undefined) => answer !== undefined && answer.status !== 429 && answer.status < 500;

/**
 * Ends sessions on the server. A logout that gets no answer (offline, or none within
 * LOGOUT_WAIT_MS) is queued in the vault and sent again later: dropped, it left the session of a
 * device signed out offline, and its refresh token, valid on the server for up to 30 days.
 */
export class PendingLogouts {
  private flushing: Promise<void> | undefined;
  /** False once a flush here found the queue empty, until this context queues again: no vault read after every API answer. */
  private mayHoldSome = true;

  constructor(private readonly origin: string) {}

  /** Sends the logout, and queues it unless the server took it. When it did, the queue goes too. */
  async end(vault: Vault, refreshToken: string): Promise<void> {
    if (taken(await this.send(refreshToken))) void this.flush(vault);
    else {
      this.mayHoldSome = true;
      await vault.queueLogout(refreshToken);
    }
  }

  /** A flush after an API call's answer, only when something may be queued (the page load and a connection back flush always). */
  flushIfAny(vault: Vault): void {
    if (this.mayHoldSome) void this.flush(vault);
  }

  /**
   * Sends the queued logouts again, until one is not taken. One flush at a time, across the
   * worker and any page running its own broker: a logout is never in flight twice.
   */
  flush(vault: Vault): Promise<void> {
    this.flushing ??= this.alone(() => this.sendQueued(vault))
      .catch(() => undefined) // the vault closed meanwhile: the next flush finds the queue as it was
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async sendQueued(vault: Vault): Promise<void> {
    for (const { key, refresh, queuedAt } of await vault.queuedLogouts()) {
      // Sealed with a key this device does not have, or long expired: nothing to send.
      if (refresh === undefined || Date.now() - queuedAt > QUEUED_LOGOUT_LIFETIME_MS) {
        await vault.dropLogout(key);
        continue;
      }
      if (!taken(await this.send(refresh))) return;
      await vault.dropLogout(key);
    }
    this.mayHoldSome = false;
  }

  private async send(refreshToken: string): Promise<Response | undefined> {
    return fetch(`${this.origin}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${refreshToken}` },
      body: '{}',
      signal: AbortSignal.timeout(LOGOUT_WAIT_MS),
    }).catch(() => undefined);
  }

  private alone(run: () => Promise<void>): Promise<void> {
    const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
    if (!locks) return run();
    return locks.request(FLUSH_LOCK, { ifAvailable: true }, (lock) => (lock ? run() : undefined));
  }
}
