import { deleteDB, openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveVaultKey, seal } from '../vault/crypto';
import { Vault, VAULT_NAME, VAULT_VERSION } from '../vault/vault';
import { PendingLogouts, QUEUED_LOGOUT_LIFETIME_MS } from './pending-logouts';

// Where nothing listens: every logout sent there gets no answer, as offline. This test page's
// own server answers every path (with a 404 for the logout's): the server is reachable again.
const unreachable = new PendingLogouts('http://127.0.0.1:1');
const reachable = () => new PendingLogouts(location.origin);

const opened: Vault[] = [];
const openVault = async (deviceId = 'this-device') => {
  const vault = Vault.withKey(await Vault.openDatabase(), await deriveVaultKey(deviceId));
  opened.push(vault);
  return vault;
};
const queuedTokens = async (vault: Vault) => (await vault.queuedLogouts()).map((queued) => queued.refresh);

beforeEach(async () => {
  await deleteDB(VAULT_NAME);
});
afterEach(() => {
  opened.splice(0).forEach((vault) => vault.close());
});

describe('a logout that gets no answer', () => {
  it('is queued in the vault, sealed like the account tokens', async () => {
    const vault = await openVault();
    await unreachable.end(vault, 'refresh-token-a');
    expect(await queuedTokens(vault)).toEqual(['refresh-token-a']);
    const raw = await openDB(VAULT_NAME, VAULT_VERSION);
    const [row] = await raw.getAll('settings');
    raw.close();
    expect(row.refresh.data).toBeInstanceOf(Uint8Array);
    expect(row.refresh.iv).toHaveLength(12);
    expect(JSON.stringify(row)).not.toContain('refresh-token-a');
  });

  it('is kept while the server stays out of reach, and sent once it answers', async () => {
    const vault = await openVault();
    await unreachable.end(vault, 'refresh-token-a');
    await unreachable.end(vault, 'refresh-token-b');
    await unreachable.flush(vault);
    expect(await queuedTokens(vault)).toEqual(['refresh-token-a', 'refresh-token-b']);
    await reachable().flush(vault);
    expect(await queuedTokens(vault)).toEqual([]);
  });

  it('is not queued when the server answers', async () => {
    const vault = await openVault();
    await reachable().end(vault, 'refresh-token-a');
    expect(await queuedTokens(vault)).toEqual([]);
  });

  it('is queued when the server is busy or failing (429, 5xx), and sent with the queue once it answers otherwise', async () => {
    const vault = await openVault();
    const answering = (status: number) => new PendingLogouts(`${location.origin}/answer-with/${status}`);
    for (const status of [429, 500, 503]) await answering(status).end(vault, `refresh-token-${status}`);
    expect(await queuedTokens(vault)).toEqual(['refresh-token-429', 'refresh-token-500', 'refresh-token-503']);
    // A 401: the session has ended already, which is what the logout was for.
    const ended = answering(401);
    await ended.end(vault, 'refresh-token-401');
    await ended.flush(vault);
    expect(await queuedTokens(vault)).toEqual([]);
  });
});

describe('the queue', () => {
  it('drops, without sending, a token sealed with another device\'s key and one older than a refresh token lives', async () => {
    await unreachable.end(await openVault('another-device'), 'foreign-token');
    const vault = await openVault();
    const raw = await openDB(VAULT_NAME, VAULT_VERSION);
    const old = Date.now() - QUEUED_LOGOUT_LIFETIME_MS - 60_000;
    await raw.put('settings', { key: 'guard-pending-logout:old', refresh: await seal(await deriveVaultKey('this-device'), 'old-token'), queuedAt: old });
    raw.close();
    await unreachable.end(vault, 'fresh-token');
    expect(await queuedTokens(vault)).toEqual(['old-token', undefined, 'fresh-token']);
    await unreachable.flush(vault);
    expect(await queuedTokens(vault)).toEqual(['fresh-token']);
  });

  it('is sent by one flush at a time, in this context and across contexts', async () => {
    const vault = await openVault();
    await unreachable.end(vault, 'refresh-token-a');
    const logouts = reachable();
    expect(logouts.flush(vault)).toBe(logouts.flush(vault));
    await logouts.flush(vault);
    await unreachable.end(vault, 'refresh-token-b');
    // Another context's flush holds the lock: this one leaves the queue to it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding: Promise<void> | undefined;
    await new Promise<void>((locked) => (holding = navigator.locks.request('guard-pending-logouts', () => (locked(), held))));
    await logouts.flush(vault);
    expect(await queuedTokens(vault)).toEqual(['refresh-token-b']);
    release();
    await holding;
    await logouts.flush(vault);
    expect(await queuedTokens(vault)).toEqual([]);
  });
});
