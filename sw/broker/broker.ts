import { loginResponseSchema, refreshResponseSchema } from '../../contract/accounts';
import { ACCOUNT_HEADER, BROKER_CHANNEL, type AccountDetails, type BrokerApi, type BrokerEvent, type BrokerSnapshot, type DeviceTraits, type SignInCredentials, type SignInResult } from '../../contract/broker';
import { deriveVaultKey, sha256Hex } from '../vault/crypto';
import { DEVICE_ID_KEY, readSetting, SELECTED_KEY, SERVER_CLOCK_KEY, summaryOf, Vault, writeSetting } from '../vault/vault';
import { accountSwitched, answerInstead, errorOf, refusalOf, withBearer, type Renewal } from './answers';
import { needsRefresh, ServerClock } from './jwt-expiry';
import { PendingLogouts } from './pending-logouts';
import { sendRefresh, unlessOffline } from './refresh-tries';

// Calls that carry their own credentials (or none) and are never given a bearer: the app's own
// sign-in calls, and the public OAuth endpoints, which any site can send a person to (a 401 of
// theirs must not make the broker rotate the refresh token). /api/v1/oauth/code is the person's own.
const UNAUTHENTICATED_PATHS = new Set([
  '/api/v1/auth/login',
  '/api/v1/register',
  '/api/v1/auth/refresh',
  '/api/v1/auth/logout',
  '/api/v1/auth/password-reset',
  '/api/v1/auth/password-reset/confirm',
  '/api/v1/oauth/authorize',
  '/api/v1/oauth/end-session',
  '/api/v1/oauth/token',
  '/api/v1/oauth/introspect',
  '/api/v1/oauth/revoke',
  '/api/v1/oauth/userinfo',
]);

/**
 * Whether the broker sends this request with the active account's bearer: a same-origin API call
 * made by the app itself. Never a navigation or a no-cors request (a link, form, image or script
 * tag, which may come from another site's page), nor one that already names its credentials.
 */
export function isBrokeredRequest(request: Request, origin: string): boolean {
  const url = new URL(request.url);
  if (request.mode === 'navigate' || request.mode === 'no-cors' || request.headers.has('authorization')) return false;
  return url.origin === origin && url.pathname.startsWith('/api/') && !UNAUTHENTICATED_PATHS.has(url.pathname);
}

/**
 * The token broker: owns the vault, signs in, attaches bearer tokens and refreshes them at most
 * once at a time for every tab. The same class runs in the service worker and, where no worker
 * controls the page, in the page itself.
 */
export class Broker implements BrokerApi {
  private vault: Promise<Vault> | undefined;
  private readonly refreshing = new Map<string, Promise<Renewal>>();
  private readonly channel = new BroadcastChannel(BROKER_CHANNEL);
  private readonly serverClock = new ServerClock();
  private readonly logouts: PendingLogouts;

  constructor(private readonly origin: string) {
    this.logouts = new PendingLogouts(origin);
  }

  async init(traits: DeviceTraits): Promise<BrokerSnapshot> {
    void this.logouts.flush(await this.ready(traits));
    return this.snapshot();
  }

  /** Sends the logouts the server has not taken yet (the worker calls it when the connection is back). */
  async flushLogouts(): Promise<void> {
    const vault = await this.ready().catch(() => undefined);
    if (vault) await this.logouts.flush(vault);
  }

  async snapshot(): Promise<BrokerSnapshot> {
    const vault = await this.ready();
    const accounts = (await vault.all()).map(summaryOf);
    return { accounts, selectedId: await vault.getSetting(SELECTED_KEY) };
  }

  async signIn({ email, password, code }: SignInCredentials): Promise<SignInResult> {
    const vault = await this.ready();
    const response = await fetch(`${this.origin}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, code }),
    });
    if (!response.ok) return { ok: false, status: response.status, ...(await errorOf(response)) };
    const login = loginResponseSchema.parse(await response.json());
    await this.learnServerTime(vault, login.access);
    const account = {
      accountId: login.id,
      label: login.full_name,
      email: login.email,
      profilePicture: login.profile_picture,
      access: login.access,
      refresh: login.refresh,
      updatedAt: new Date().toISOString(),
    };
    // Under the account's lock, so a refresh of its earlier session cannot write that one back.
    const previous = await this.exclusively(account.accountId, async () => {
      const saved = await vault.get(account.accountId);
      await vault.put(account);
      return saved;
    });
    // Signed in again as an account this device had: its earlier session is no device's any more.
    if (previous) await this.logouts.end(vault, previous.refresh);
    await vault.setSetting(SELECTED_KEY, account.accountId);
    await this.announce();
    return { ok: true, account: summaryOf(account) };
  }

  async select(accountId: string | null): Promise<void> {
    const vault = await this.ready();
    if (accountId !== null && !(await vault.get(accountId))) throw new Error('No such account on this device');
    await vault.setSetting(SELECTED_KEY, accountId);
    await this.announce();
  }

  /**
   * Signs out the account the page shows. The account goes first, the selection after, and only
   * if it still names that account: a call sent again (the worker was stopped midway) finishes
   * the job, and an account another tab chose meanwhile stays chosen.
   */
  async signOut(accountId: string): Promise<void> {
    await this.remove(accountId);
  }

  async remove(accountId: string): Promise<void> {
    const vault = await this.ready();
    await this.forget(vault, accountId);
    if ((await vault.getSetting(SELECTED_KEY)) === accountId) await vault.setSetting(SELECTED_KEY, null);
    await this.announce();
  }

  async updateAccount(accountId: string, { label, email, profilePicture }: AccountDetails): Promise<void> {
    const vault = await this.ready();
    // Under the account's lock: a refresh meanwhile would otherwise be overwritten with the old tokens.
    const updated = await this.exclusively(accountId, async () => {
      const account = await vault.get(accountId);
      if (!account) return false;
      await vault.put({ ...account, label, email, profilePicture, updatedAt: new Date().toISOString() });
      return true;
    });
    if (updated) await this.announce();
  }

  /**
   * Sends a first-party API request with the active account's bearer token, refreshing it first
   * when expired. A 401 answer gets one forced refresh and one retry: a revoked session is
   * noticed at once, and its account is removed.
   */
  async fetchWithToken(request: Request): Promise<Response> {
    const vault = await this.ready();
    const accountId = await vault.getSetting(SELECTED_KEY);
    const meant = request.headers.get(ACCOUNT_HEADER);
    if (meant !== null && meant !== accountId) return accountSwitched();
    if (!accountId) return fetch(request);
    const retry = request.clone();
    const token = await this.accessToken(accountId, false);
    if (typeof token !== 'string') return answerInstead(token);
    const response = await fetch(withBearer(request, token));
    this.logouts.flushIfAny(vault); // the server answers: the logouts it has not taken can go now
    if (response.status !== 401) return response;
    const renewed = await this.accessToken(accountId, true, token);
    if (typeof renewed !== 'string') return response;
    return fetch(withBearer(retry, renewed));
  }

  /** A valid access token of the account, refreshed when needed; else why it cannot be had. */
  private async accessToken(accountId: string, force: boolean, rejected?: string): Promise<Renewal> {
    const account = await (await this.ready()).get(accountId);
    if (!account) return undefined;
    if (!force && !needsRefresh(account.access, this.serverClock.now())) return account.access;
    let running = this.refreshing.get(accountId);
    if (!running) {
      running = this.refreshExclusively(accountId, rejected).finally(() => this.refreshing.delete(accountId));
      this.refreshing.set(accountId, running);
    }
    return unlessOffline(running);
  }


  private refreshExclusively(accountId: string, rejected: string | undefined): Promise<Renewal> {
    return this.exclusively(accountId, () => this.refresh(accountId, rejected));
  }

  /**
   * Runs a read-and-write of the account's saved tokens alone: Web Locks make it single across the
   * worker and any page running its own broker. Without them, it waits for this broker's refresh.
   */
  private async exclusively<T>(accountId: string, run: () => Promise<T>): Promise<T> {
    const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
    if (locks) return locks.request(`guard-refresh:${accountId}`, run);
    await this.refreshing.get(accountId)?.catch(() => undefined);
    return run();
  }

  private async refresh(accountId: string, rejected: string | undefined): Promise<Renewal> {
    const vault = await this.ready();
    const account = await vault.get(accountId);
    if (!account) return undefined;
    // Another context may have refreshed while this one waited for the lock.
    if (account.access !== rejected && !needsRefresh(account.access, this.serverClock.now())) return account.access;
    const response = await sendRefresh(this.origin, account.refresh);
    if (!response) return undefined; // no answer (offline): keep the account, the next request tries again
    if (response.status >= 400 && response.status < 500 && response.status !== 429) {
      await vault.delete(accountId);
      if ((await vault.getSetting(SELECTED_KEY)) === accountId) await vault.setSetting(SELECTED_KEY, null);
      await this.announce({ signedOut: accountId });
      return refusalOf(response);
    }
    // Busy or failing (429, 5xx): the account stays; the call gets the server's own words.
    if (!response.ok) return refusalOf(response);
    const tokens = refreshResponseSchema.parse(await response.json());
    await this.learnServerTime(vault, tokens.access);
    // Signed out meanwhile (a context without Web Locks): the account stays gone, and so does its session.
    if (!(await vault.get(accountId))) {
      await this.logouts.end(vault, tokens.refresh);
      return undefined;
    }
    await vault.put({ ...account, access: tokens.access, refresh: tokens.refresh, updatedAt: new Date().toISOString() });
    return tokens.access;
  }

  /** Kept in the vault: a worker started again would otherwise refresh once more to learn it. */
  private async learnServerTime(vault: Vault, freshAccess: string): Promise<void> {
    if (this.serverClock.learnFrom(freshAccess)) await vault.setSetting(SERVER_CLOCK_KEY, String(this.serverClock.offsetMs));
  }


  /**
   * The open vault. A worker that was stopped and started again has lost its memory: it rebuilds
   * the key from the device id kept in the database, so no page needs to call init first.
   */
  private ready(traits?: DeviceTraits): Promise<Vault> {
    if (!this.vault) {
      // A connection lost later is opened afresh by the next call, not kept failing until the worker stops.
      const forget = () => {
        if (this.vault === opening) this.vault = undefined;
      };
      const opening: Promise<Vault> = this.openVault(traits, forget).catch((error: unknown) => {
        forget();
        throw error;
      });
      this.vault = opening;
    }
    return this.vault;
  }

  private async openVault(traits: DeviceTraits | undefined, onLost: () => void): Promise<Vault> {
    const db = await Vault.openDatabase(onLost);
    // The device id is computed once and kept: traits such as the screen size may change later.
    let deviceId = await readSetting(db, DEVICE_ID_KEY);
    if (!deviceId) {
      if (!traits) throw new Error('No database connection');
      deviceId = await sha256Hex(JSON.stringify(traits));
      await writeSetting(db, DEVICE_ID_KEY, deviceId);
    }
    this.serverClock.offsetMs = Number(await readSetting(db, SERVER_CLOCK_KEY)) || 0;
    return Vault.withKey(db, await deriveVaultKey(deviceId));
  }

  private async announce(options: { signedOut?: string } = {}): Promise<void> {
    const snapshot = await this.snapshot();
    const event: BrokerEvent = options.signedOut ? { type: 'signed-out', accountId: options.signedOut, snapshot } : { type: 'changed', snapshot };
    this.channel.postMessage(event);
    this.listeners.forEach((listener) => listener(event));
  }

  /**
   * Ends the account's session on the server and deletes it here. After any refresh in flight,
   * under its lock: the logout names the newest refresh token, and the refresh cannot write the
   * account back.
   */
  private forget(vault: Vault, accountId: string): Promise<void> {
    return this.exclusively(accountId, async () => {
      const account = await vault.get(accountId);
      if (account) await this.logouts.end(vault, account.refresh);
      await vault.delete(accountId);
    });
  }

  /** Closes the vault and the channel (tests, and a page broker that is being replaced). */
  async close(): Promise<void> {
    this.channel.close();
    const vault = await this.vault?.catch(() => undefined);
    vault?.close();
    this.vault = undefined;
  }

  /** Listeners in this same context (BroadcastChannel does not deliver to its own sender). */
  readonly listeners = new Set<(event: BrokerEvent) => void>();
}
