import { deleteDB } from 'idb';
import { onTestFinished } from 'vitest';
import { deriveVaultKey } from '../vault/crypto';
import { DEVICE_ID_KEY, readSetting, SELECTED_KEY, Vault, VAULT_NAME, type VaultAccount } from '../vault/vault';
import { Broker } from './broker';

// Support for browser tests: the real broker and vault run in the test's page, as they do where
// no service worker is active.

export const TEST_DEVICE_TRAITS = { userAgent: 'test', language: 'en', platform: 'test', screen: '1x1x24@1', timezone: 'UTC' };

/** An account saved on the device; its access token expires in 2100 unless `exp` (seconds) says otherwise. */
export const savedAccount = (id: string, label = id, exp = 4102444800): VaultAccount => ({
  accountId: id,
  label,
  email: `${id}@example.com`,
  profilePicture: null,
  access: `e30.${btoa(JSON.stringify({ sub: id, exp }))}.sig`,
  refresh: `refresh-of-${id}`,
  updatedAt: new Date().toISOString(),
});

/**
 * A broker in this page, and the vault it reads, on a device new to the site that holds these
 * accounts with `selected` chosen. Both are closed, and the device's data cleared, when the test ends.
 */
export async function deviceWithAccounts(accounts: VaultAccount[], selected: string | null): Promise<{ broker: Broker; vault: Vault }> {
  await deleteDB(VAULT_NAME);
  const broker = new Broker(location.origin);
  await broker.init(TEST_DEVICE_TRAITS);
  const db = await Vault.openDatabase();
  const vault = Vault.withKey(db, await deriveVaultKey((await readSetting(db, DEVICE_ID_KEY))!));
  onTestFinished(async () => {
    vault.close();
    await broker.close();
    await deleteDB(VAULT_NAME);
  });
  for (const account of accounts) await vault.put(account);
  await vault.setSetting(SELECTED_KEY, selected);
  return { broker, vault };
}
