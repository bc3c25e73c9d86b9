import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AccountSummary } from '../../contract/broker';
import { open, seal, type Sealed } from './crypto';

/** The spec's stored account (§3): tokens sealed, everything else plain. */
export type StoredAccount = {
  accountId: string;
  label: string;
  email: string;
  profilePicture: string | null;
  access: Sealed;
  refresh: Sealed;
  updatedAt: string;
};

/** A stored account with its tokens opened: lives only inside the broker. */
export type VaultAccount = Omit<StoredAccount, 'access' | 'refresh'> & { access: string; refresh: string };

/** A sign-out's logout the server has not answered: its refresh token, sealed, to be sent again. */
type StoredLogout = { key: string; refresh: Sealed; queuedAt: number };
export type QueuedLogout = { key: string; refresh: string | undefined; queuedAt: number };

interface GuardLocal extends DBSchema {
  accounts: { key: string; value: StoredAccount };
  /**
   * The device id and the selected account, shared by every tab and the worker; and queued
   * logouts, kept here rather than in a store of their own, which would need a database version
   * other than the spec's 3.
   */
  settings: { key: string; value: { key: string; value: string } | StoredLogout };
}

export const VAULT_NAME = 'guard-local';
export const VAULT_VERSION = 3;
export const DEVICE_ID_KEY = 'guard-device-id';
export const SELECTED_KEY = 'guard-selected';
/** How far the device's clock is behind the server's, in milliseconds (ServerClock). */
export const SERVER_CLOCK_KEY = 'guard-server-clock-offset';
const LOGOUT_PREFIX = 'guard-pending-logout:';

export type VaultDatabase = IDBPDatabase<GuardLocal>;

export async function readSetting(db: VaultDatabase, key: string): Promise<string | null> {
  const row = await db.get('settings', key);
  return row && 'value' in row ? row.value : null;
}

export async function writeSetting(db: VaultDatabase, key: string, value: string | null): Promise<void> {
  if (value === null) await db.delete('settings', key);
  else await db.put('settings', { key, value });
}

export const summaryOf = ({ access: _a, refresh: _r, ...summary }: VaultAccount | StoredAccount): AccountSummary => summary;

export class Vault {
  private constructor(
    private readonly db: IDBPDatabase<GuardLocal>,
    private readonly key: CryptoKey,
  ) {}

  /**
   * `onLost`: the connection is gone for good. The browser closed it (site data cleared), or a
   * newer version of the app, or a deletion, needs it closed: kept open, it would hold that back.
   */
  static async openDatabase(onLost?: () => void): Promise<IDBPDatabase<GuardLocal>> {
    try {
      const db: IDBPDatabase<GuardLocal> = await openDB<GuardLocal>(VAULT_NAME, VAULT_VERSION, {
        upgrade(db) {
          if (!db.objectStoreNames.contains('accounts')) db.createObjectStore('accounts', { keyPath: 'accountId' });
          if (!db.objectStoreNames.contains('settings')) db.createObjectStore('settings', { keyPath: 'key' });
        },
        blocking() {
          db.close();
          onLost?.();
        },
        terminated() {
          onLost?.();
        },
      });
      return db;
    } catch {
      throw new Error('No database connection');
    }
  }

  static withKey(db: IDBPDatabase<GuardLocal>, key: CryptoKey): Vault {
    return new Vault(db, key);
  }

  /** Every account that opens with this device's key; the others are skipped with a warning. */
  async all(): Promise<VaultAccount[]> {
    const stored = await this.db.getAll('accounts');
    const opened: VaultAccount[] = [];
    for (const account of stored) {
      const usable = await this.unseal(account);
      if (usable) opened.push(usable);
    }
    return opened.sort((a, b) => a.label.localeCompare(b.label));
  }

  async get(accountId: string): Promise<VaultAccount | undefined> {
    const stored = await this.db.get('accounts', accountId);
    return stored ? this.unseal(stored) : undefined;
  }

  async put(account: VaultAccount): Promise<void> {
    const { access, refresh, ...plain } = account;
    await this.db.put('accounts', { ...plain, access: await seal(this.key, access), refresh: await seal(this.key, refresh) });
  }

  close(): void {
    this.db.close();
  }

  async delete(accountId: string): Promise<void> {
    await this.db.delete('accounts', accountId);
  }

  async queueLogout(refresh: string): Promise<void> {
    await this.db.put('settings', { key: `${LOGOUT_PREFIX}${crypto.randomUUID()}`, refresh: await seal(this.key, refresh), queuedAt: Date.now() });
  }

  /** The queued logouts, oldest first; `refresh` is undefined where it cannot be opened with this device's key. */
  async queuedLogouts(): Promise<QueuedLogout[]> {
    const stored = (await this.db.getAll('settings', IDBKeyRange.bound(LOGOUT_PREFIX, `${LOGOUT_PREFIX}\uffff`))).filter((row): row is StoredLogout => 'refresh' in row);
    const opened = await Promise.all(stored.map(async ({ key, refresh, queuedAt }) => ({ key, queuedAt, refresh: await open(this.key, refresh).catch(() => undefined) })));
    return opened.sort((a, b) => a.queuedAt - b.queuedAt);
  }

  async dropLogout(key: string): Promise<void> {
    await this.db.delete('settings', key);
  }

  getSetting(key: string): Promise<string | null> {
    return readSetting(this.db, key);
  }

  setSetting(key: string, value: string | null): Promise<void> {
    return writeSetting(this.db, key, value);
  }

  private async unseal(stored: StoredAccount): Promise<VaultAccount | undefined> {
    try {
      return { ...stored, access: await open(this.key, stored.access), refresh: await open(this.key, stored.refresh) };
    } catch {
      console.warn(`Skipping saved account ${stored.email}: it cannot be decrypted on this device`);
      return undefined;
    }
  }
}
