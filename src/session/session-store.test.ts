import { afterEach, describe, expect, it, vi } from 'vitest';
import { BROKER_CHANNEL, type BrokerEvent } from '../../contract/broker';
import { Broker } from '../../sw/broker/broker';
import { deviceWithAccounts, savedAccount, TEST_DEVICE_TRAITS } from '../../sw/broker/device-with-accounts';
import { SELECTED_KEY, type Vault, type VaultAccount } from '../../sw/vault/vault';
import { createSession, fetchAsShown } from './session-store';

let vault: Vault;
let broker: Broker;
const cleanups: Array<() => void> = [];

async function setUp(accounts: VaultAccount[], selected: string | null, fetch?: (input: string) => Promise<Response>) {
  ({ broker, vault } = await deviceWithAccounts(accounts, selected));
  return createSession({ api: broker, fetch: fetch ?? ((input, init) => broker.fetchWithToken(new Request(input, init))) });
}

afterEach(() => {
  vi.restoreAllMocks();
  cleanups.splice(0).forEach((cleanup) => cleanup());
});

describe('loading accounts', () => {
  it('requires sign-in when no account is stored', async () => {
    const session = await setUp([], null);
    const loading = session.loadAccounts();
    expect(session.state.loadingAccounts).toBe(true);
    await loading;
    expect(session.state).toMatchObject({ accounts: [], activeAccount: null, signInRequired: true, loadingAccounts: false, hasLoadedAccounts: true });
  });

  it('requires sign-in when accounts exist but none is selected', async () => {
    const session = await setUp([savedAccount('a', 'Ada')], null);
    await session.loadAccounts();
    expect(session.state.accounts).toHaveLength(1);
    expect(session.state.signInRequired).toBe(true);
    expect(session.state.activeAccount).toBeNull();
  });

  it('clears a selection that names no stored account, and requires sign-in', async () => {
    const session = await setUp([savedAccount('a', 'Ada')], 'gone');
    await session.loadAccounts();
    expect(session.state.signInRequired).toBe(true);
    expect(await vault.getSetting(SELECTED_KEY)).toBeNull();
  });

  it('makes the selected account active', async () => {
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], 'b');
    await session.loadAccounts();
    expect(session.state.activeAccount?.accountId).toBe('b');
    expect(session.state.signInRequired).toBe(false);
    expect(JSON.stringify(session.state)).not.toContain('refresh-of-b');
  });
});

describe('switching and signing out', () => {
  it('switching stores the id and clears sign-in-required', async () => {
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], null);
    await session.loadAccounts();
    await session.switchAccount('a');
    expect(await vault.getSetting(SELECTED_KEY)).toBe('a');
    expect(session.state.activeAccount?.accountId).toBe('a');
    expect(session.state.signInRequired).toBe(false);
  });

  it('sign-out deletes only the active account and requires sign-in', async () => {
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], 'a');
    await session.loadAccounts();
    await session.signOut();
    expect(session.state.activeAccount).toBeNull();
    expect(session.state.signInRequired).toBe(true);
    expect(session.state.accounts.map((a) => a.accountId)).toEqual(['b']);
    expect((await vault.all()).map((a) => a.accountId)).toEqual(['b']);
    expect(await vault.getSetting(SELECTED_KEY)).toBeNull();
  });

  it('signs out the account this page shows, not one another tab switched to that it has not heard of', async () => {
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], 'a');
    await session.loadAccounts();
    await vault.setSetting(SELECTED_KEY, 'b'); // another tab's switch, not told here yet
    await session.signOut();
    expect((await vault.all()).map((a) => a.accountId)).toEqual(['b']);
    expect(await vault.getSetting(SELECTED_KEY)).toBe('b');
    expect(session.state.accounts.map((a) => a.accountId)).toEqual(['b']);
  });
});

describe('authenticating', () => {
  it('only logs a failure, and ends with authenticating=false and hasAuthenticated=true', async () => {
    const session = await setUp([savedAccount('a', 'Ada')], 'a');
    await session.loadAccounts();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const running = session.authenticate();
    expect(session.state.authenticating).toBe(true);
    await running; // no API server answers here: the profile call fails
    expect(logged).toHaveBeenCalled();
    expect(session.state).toMatchObject({ authenticating: false, hasAuthenticated: true, profile: null });
  });
});

/** Profile answers the test gives when it chooses, in the order they were asked for. */
function heldProfiles() {
  const asked: Array<(answer: Response | Error) => void> = [];
  const fetch = () => new Promise<Response>((resolve, reject) => asked.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))));
  const profile = (id: string) => Response.json({ id, email: `${id}@example.com`, full_name: id, username: id, phone_number: null, profile_picture: null, is_admin: true, email_verified: true, avatar_verified: true, verified: true });
  return { fetch, asked, profile };
}

describe('loading the profile again', () => {
  it('after a failed load, loads it when asked, and only then', async () => {
    const held = heldProfiles();
    const session = await setUp([savedAccount('a', 'Ada')], 'a', held.fetch);
    await session.loadAccounts();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = session.ensureAuthenticated();
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    held.asked[0]!(new TypeError('Failed to fetch'));
    await first;
    expect(session.state).toMatchObject({ hasAuthenticated: true, profile: null });
    await session.ensureAuthenticated(); // authenticated already, failed or not: nothing asked
    expect(held.asked).toHaveLength(1);

    const again = session.reloadProfile();
    expect(session.state.hasAuthenticated).toBe(false);
    await vi.waitFor(() => expect(held.asked).toHaveLength(2));
    held.asked[1]!(held.profile('a'));
    await again;
    expect(session.state).toMatchObject({ hasAuthenticated: true, authenticating: false, profile: { id: 'a', is_admin: true } });
    await session.reloadProfile(); // loaded: nothing to do
    expect(held.asked).toHaveLength(2);
  });

  it('a load still running for the account switched away from neither ends nor fills the new account\'s', async () => {
    const held = heldProfiles();
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], 'a', held.fetch);
    await session.loadAccounts();
    const forA = session.ensureAuthenticated();
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    await session.switchAccount('b');
    const forB = session.ensureAuthenticated();
    await vi.waitFor(() => expect(held.asked).toHaveLength(2));

    held.asked[0]!(held.profile('a'));
    await forA;
    expect(session.state).toMatchObject({ hasAuthenticated: false, profile: null });
    held.asked[1]!(held.profile('b'));
    await forB;
    expect(session.state).toMatchObject({ hasAuthenticated: true, authenticating: false, profile: { id: 'b' } });
  });
});

describe('other tabs', () => {
  it('follows a selection made in another tab', async () => {
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], 'a');
    await session.loadAccounts();
    const channel = new BroadcastChannel(BROKER_CHANNEL);
    cleanups.push(() => channel.close());
    const received = new Promise<void>((resolve) => {
      channel.onmessage = async (message: MessageEvent<BrokerEvent>) => {
        await session.onBrokerEvent(message.data);
        resolve();
      };
    });
    const otherTab = new Broker(location.origin);
    cleanups.push(() => void otherTab.close());
    await otherTab.init(TEST_DEVICE_TRAITS);
    await otherTab.select('b');
    await received;
    expect(session.state.activeAccount?.accountId).toBe('b');
  });

  it('a call refused because another tab switched, unheard of here, brings the switch to this page', async () => {
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], 'a');
    await session.loadAccounts();
    await vault.setSetting(SELECTED_KEY, 'b'); // another tab's switch, its announcement lost
    const fetchShown = fetchAsShown(session, (input, init) => broker.fetchWithToken(new Request(input, init)));
    const refused = await fetchShown('/api/v1/auth/profile');
    expect(refused.status).toBe(409);
    expect(session.state.activeAccount?.accountId).toBe('b');
    expect(session.state.profile).toBeNull();
  });

  it('says the server signed the account out, though a refused call took the account from this page before the broker\'s event came', async () => {
    const session = await setUp([savedAccount('a', 'Ada'), savedAccount('b', 'Bob')], 'a');
    await session.loadAccounts();
    // What the broker does when the server refuses Ada's refresh, before it announces it.
    await vault.delete('a');
    await vault.setSetting(SELECTED_KEY, null);
    const fetchShown = fetchAsShown(session, (input, init) => broker.fetchWithToken(new Request(input, init)));
    expect((await fetchShown('/api/v1/auth/profile')).status).toBe(409);
    expect(session.state).toMatchObject({ activeAccount: null, endedSession: null });

    await session.onBrokerEvent({ type: 'signed-out', accountId: 'a', snapshot: await broker.snapshot() });
    expect(session.state.endedSession).toEqual({ email: 'a@example.com' });
    // Bob, never shown here, ended too: nothing more to say.
    await vault.delete('b');
    await session.onBrokerEvent({ type: 'signed-out', accountId: 'b', snapshot: await broker.snapshot() });
    expect(session.state.endedSession).toEqual({ email: 'a@example.com' });
  });

  it('says nothing of an account signed out here by hand when a refused refresh of it is announced', async () => {
    const session = await setUp([savedAccount('a', 'Ada')], 'a');
    await session.loadAccounts();
    await session.signOut();
    await session.onBrokerEvent({ type: 'signed-out', accountId: 'a', snapshot: await broker.snapshot() });
    expect(session.state.endedSession).toBeNull();
  });
});
