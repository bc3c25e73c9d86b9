import { deleteDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_HEADER } from '../../contract/broker';
import { sha256Hex } from '../vault/crypto';
import { DEVICE_ID_KEY, readSetting, SELECTED_KEY, Vault, VAULT_NAME } from '../vault/vault';
import { Broker, isBrokeredRequest } from './broker';
import { deviceWithAccounts, savedAccount, TEST_DEVICE_TRAITS } from './device-with-accounts';

const origin = 'https://id.example';
const brokered = (path: string, init?: RequestInit, base = origin) => isBrokeredRequest(new Request(`${base}${path}`, init), origin);

describe('isBrokeredRequest', () => {
  it('gives the bearer to the app\'s own API calls, the code request among them', () => {
    expect(brokered('/api/v1/auth/profile')).toBe(true);
    expect(brokered('/api/v1/oauth/code', { method: 'POST', body: '{}' })).toBe(true);
  });

  it('never to the public OAuth endpoints, which any site can send a person to', () => {
    for (const name of ['authorize', 'end-session', 'token', 'introspect', 'revoke', 'userinfo']) expect(brokered(`/api/v1/oauth/${name}`), name).toBe(false);
  });

  it('never to sign-in calls, other origins, pages, no-cors requests or requests with their own credentials', () => {
    expect(brokered('/api/v1/auth/refresh', { method: 'POST' })).toBe(false);
    expect(brokered('/api/v1/auth/profile', undefined, 'https://evil.example')).toBe(false);
    expect(brokered('/personal-info')).toBe(false);
    expect(brokered('/api/v1/auth/profile', { mode: 'no-cors' })).toBe(false);
    expect(brokered('/api/v1/auth/profile', { headers: { authorization: 'Bearer service-token' } })).toBe(false);
  });
});

const opened: Array<{ close(): void | Promise<void> }> = [];
afterEach(async () => {
  for (const connection of opened.splice(0)) await connection.close();
});

describe('a call naming the account its page shows', () => {
  /** A broker whose device holds accounts a and b, with b chosen (in another tab, say). */
  const brokerWithBChosen = async () => (await deviceWithAccounts([savedAccount('a'), savedAccount('b')], 'b')).broker;
  const profileFor = (shown: string) => new Request(`${location.origin}/api/v1/auth/profile`, { headers: { [ACCOUNT_HEADER]: shown } });

  it('is refused, and not sent, when another account was chosen since', async () => {
    const broker = await brokerWithBChosen();
    const answer = await broker.fetchWithToken(profileFor('a'));
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({ error: 'Another tab switched to another account. Try again.' });
  });

  it('goes out for the account chosen', async () => {
    const broker = await brokerWithBChosen();
    expect((await broker.fetchWithToken(profileFor('b'))).status).not.toBe(409);
  });
});

describe('signing out', () => {
  const savedIds = async (vault: Vault) => (await vault.all()).map((saved) => saved.accountId).sort();

  // The logout goes to this test page's own server, which has no such path: as with a server
  // that cannot be reached, the device forgets the account all the same.
  it('forgets the account the page names, and leaves another tab\'s choice chosen', async () => {
    const { broker, vault } = await deviceWithAccounts([savedAccount('a'), savedAccount('b')], 'b');
    await broker.signOut('a');
    expect(await savedIds(vault)).toEqual(['b']);
    expect(await vault.getSetting(SELECTED_KEY)).toBe('b');
  });

  it('clears the selection when it names the account signed out', async () => {
    const { broker, vault } = await deviceWithAccounts([savedAccount('a'), savedAccount('b')], 'a');
    await broker.signOut('a');
    expect(await savedIds(vault)).toEqual(['b']);
    expect(await vault.getSetting(SELECTED_KEY)).toBeNull();
  });

  it('with the server out of reach, queues the session\'s logout, which the next broker to start sends', async () => {
    const { vault } = await deviceWithAccounts([savedAccount('a')], 'a');
    const offline = new Broker('http://127.0.0.1:1'); // nothing listens there
    opened.push(offline);
    await offline.signOut('a');
    expect(await savedIds(vault)).toEqual([]);
    expect((await vault.queuedLogouts()).map((queued) => queued.refresh)).toEqual(['refresh-of-a']);
    const online = new Broker(location.origin);
    opened.push(online);
    await online.init(TEST_DEVICE_TRAITS);
    await vi.waitFor(async () => expect(await vault.queuedLogouts()).toEqual([]));
  });

  it('sent again after the first had finished, finds nothing to do and does not fail', async () => {
    const { broker, vault } = await deviceWithAccounts([savedAccount('a'), savedAccount('b')], 'a');
    await broker.signOut('a');
    await broker.signOut('a');
    expect(await savedIds(vault)).toEqual(['b']);
  });

  it('sent again after the first was cut short once the selection was cleared, still forgets the account', async () => {
    const { broker, vault } = await deviceWithAccounts([savedAccount('a')], 'a');
    await broker.select(null); // all the first call did before its worker was stopped
    await broker.signOut('a'); // the page's second try, to the worker started again
    expect(await savedIds(vault)).toEqual([]);
  });
});

describe('the vault\'s database', () => {
  it('is let go when the site\'s data is cleared while the broker runs, and opened afresh by its next call', async () => {
    const { broker, vault } = await deviceWithAccounts([savedAccount('a')], 'a');
    vault.close(); // the test's own connection
    let blocked = false;
    await deleteDB(VAULT_NAME, { blocked: () => (blocked = true) });
    expect(blocked).toBe(false);
    expect(await broker.init(TEST_DEVICE_TRAITS)).toEqual({ accounts: [], selectedId: null });
  });
});

describe('choosing and updating accounts', () => {
  it('refuses to choose an account this device does not hold, and the choice stays as it was', async () => {
    const { broker, vault } = await deviceWithAccounts([savedAccount('a')], 'a');
    await expect(broker.select('nobody')).rejects.toThrow('No such account on this device');
    expect(await vault.getSetting(SELECTED_KEY)).toBe('a');
  });

  it('tells listeners in its own context of a change', async () => {
    const { broker } = await deviceWithAccounts([savedAccount('a'), savedAccount('b')], 'a');
    const heard: unknown[] = [];
    broker.listeners.add((event) => heard.push(event));
    await broker.select('b');
    expect(heard).toEqual([{ type: 'changed', snapshot: await broker.snapshot() }]);
  });

  // A profile loaded in one tab while the account was signed out in another.
  it('leaves an account gone from the device gone, without failing, when its profile comes in', async () => {
    const { broker, vault } = await deviceWithAccounts([savedAccount('a')], 'a');
    await broker.signOut('a');
    await broker.updateAccount('a', { label: 'Ada', email: 'ada@example.com', profilePicture: null });
    expect(await vault.all()).toEqual([]);
  });
});

describe('a device new to the site', () => {
  // A worker woken by a call before any page opened the vault has no traits to make the device id from.
  it('opens no vault until a page gives the traits, and then keeps their hash as the device id', async () => {
    await deleteDB(VAULT_NAME);
    const broker = new Broker(location.origin);
    opened.push(broker);
    await expect(broker.snapshot()).rejects.toThrow('No database connection');
    expect(await broker.init(TEST_DEVICE_TRAITS)).toEqual({ accounts: [], selectedId: null });
    const db = await Vault.openDatabase();
    const deviceId = await readSetting(db, DEVICE_ID_KEY);
    db.close();
    expect(deviceId).toBe(await sha256Hex(JSON.stringify(TEST_DEVICE_TRAITS)));
  });
});
