import { deleteDB, openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deriveVaultKey, open, PBKDF2_ITERATIONS, seal, sha256Hex } from './crypto';
import { Vault, VAULT_NAME, VAULT_VERSION, type VaultAccount } from './vault';

const account = (id: string, label = 'Ada Lovelace'): VaultAccount => ({
  accountId: id,
  label,
  email: `${id}@example.com`,
  profilePicture: null,
  access: `header.${btoa(JSON.stringify({ sub: id, exp: 4102444800 }))}.signature-${id}`,
  refresh: `refresh-token-of-${id}`,
  updatedAt: new Date().toISOString(),
});

// Every connection a test opens is closed after it, or deleting the database would block.
const opened: Array<{ close(): void }> = [];
const openVault = async (deviceId: string) => {
  const vault = Vault.withKey(await Vault.openDatabase(), await deriveVaultKey(deviceId));
  opened.push(vault);
  return vault;
};

beforeEach(async () => {
  await deleteDB(VAULT_NAME);
});
afterEach(() => {
  vi.restoreAllMocks();
  opened.splice(0).forEach((connection) => connection.close());
});

describe('token encryption', () => {
  it('round-trips with AES-GCM under a PBKDF2 key, with a fresh 12-byte IV each time', async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const key = await deriveVaultKey('device-fingerprint-hash');
    const first = await seal(key, 'secret token');
    const second = await seal(key, 'secret token');
    expect(first.iv).toHaveLength(12);
    expect(first.iv).not.toEqual(second.iv);
    expect(first.data).not.toEqual(second.data);
    expect(await open(key, first)).toBe('secret token');
  });

  it('derives a key that cannot be exported, and writes SHA-256 digests (the device id) as 64 hex digits', async () => {
    const key = await deriveVaultKey('device-a');
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses a wrong key and tampered bytes', async () => {
    const sealed = await seal(await deriveVaultKey('device-a'), 'secret token');
    await expect(open(await deriveVaultKey('device-b'), sealed)).rejects.toThrow();
    const tampered = { ...sealed, data: sealed.data.map((b, i) => (i === 0 ? b ^ 1 : b)) };
    await expect(open(await deriveVaultKey('device-a'), tampered)).rejects.toThrow();
  });
});

describe('the vault (IndexedDB guard-local v3, store accounts)', () => {
  it('stores the tokens as byte arrays with an IV, never as the token text', async () => {
    const vault = await openVault('device-a');
    const saved = account('u1');
    await vault.put(saved);
    const raw = await openDB(VAULT_NAME, VAULT_VERSION);
    const stored = await raw.get('accounts', 'u1');
    raw.close();
    expect(stored.access.data).toBeInstanceOf(Uint8Array);
    expect(stored.access.iv).toBeInstanceOf(Uint8Array);
    expect(stored.access.iv).toHaveLength(12);
    expect(JSON.stringify(stored)).not.toContain('signature-u1');
    expect(JSON.stringify(stored)).not.toContain('refresh-token-of-u1');
    expect(stored).toMatchObject({ accountId: 'u1', label: 'Ada Lovelace', email: 'u1@example.com' });
    expect(await vault.get('u1')).toEqual(saved);
  });

  it('skips, with a warning, an account it cannot decrypt, and keeps the others', async () => {
    await (await openVault('another-device')).put(account('foreign', 'Zed'));
    const vault = await openVault('this-device');
    await vault.put(account('mine', 'Ada'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const all = await vault.all();
    expect(all.map((a) => a.accountId)).toEqual(['mine']);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toContain('foreign@example.com');
  });

  it('lists the accounts by their names, for the account picker', async () => {
    const vault = await openVault('device-a');
    for (const [id, label] of [['u1', 'Grace Hopper'], ['u2', 'Ada Lovelace'], ['u3', 'Barbara Liskov']]) await vault.put(account(id!, label));
    expect((await vault.all()).map((saved) => saved.label)).toEqual(['Ada Lovelace', 'Barbara Liskov', 'Grace Hopper']);
  });

  it('deletes accounts and keeps settings', async () => {
    const vault = await openVault('device-a');
    await vault.put(account('u1'));
    await vault.setSetting('guard-selected', 'u1');
    expect(await vault.getSetting('guard-selected')).toBe('u1');
    await vault.delete('u1');
    await vault.setSetting('guard-selected', null);
    expect(await vault.all()).toEqual([]);
    expect(await vault.getSetting('guard-selected')).toBeNull();
  });
});
