import { proxy } from 'valtio';
import { profileSchema, type Profile } from '../../contract/accounts';
import { ACCOUNT_HEADER, ACCOUNT_SWITCHED_HEADER, type AccountSummary, type BrokerEvent, type BrokerSnapshot, type SignInCredentials, type SignInResult } from '../../contract/broker';
import { ApiError } from '../api/errors';
import type { BrokerConnection } from '../broker/connect';

/** The spec's session state (§4). */
export type SessionState = {
  profile: Profile | null;
  authenticating: boolean;
  activeAccount: AccountSummary | null;
  accounts: AccountSummary[];
  loadingAccounts: boolean;
  signInRequired: boolean;
  hasAuthenticated: boolean;
  hasLoadedAccounts: boolean;
  /** The active account whose session the server ended (a refused refresh), until someone signs in. */
  endedSession: { email: string } | null;
};

export type Session = ReturnType<typeof createSession>;

export function createSession(broker: Pick<BrokerConnection, 'api' | 'fetch'>) {
  const state = proxy<SessionState>({
    profile: null,
    authenticating: false,
    activeAccount: null,
    accounts: [],
    loadingAccounts: false,
    signInRequired: false,
    hasAuthenticated: false,
    hasLoadedAccounts: false,
    endedSession: null,
  });

  /**
   * The account this page showed until it went from the device under it, until another is shown.
   * A call refused for it can bring that news before the broker's event saying the server ended
   * it: the event still names the account this page showed.
   */
  let vanished: { accountId: string; email: string } | null = null;

  /** Applies the broker's account set and selection, following the spec's loading rules. */
  async function apply(snapshot: BrokerSnapshot): Promise<void> {
    const shown = state.activeAccount;
    const previous = shown?.accountId ?? null;
    state.accounts = snapshot.accounts;
    const selected = snapshot.accounts.find((account) => account.accountId === snapshot.selectedId) ?? null;
    if (snapshot.selectedId !== null && !selected) await broker.api.select(null);
    if (selected) vanished = null;
    else if (shown && !snapshot.accounts.some((account) => account.accountId === shown.accountId)) vanished = { accountId: shown.accountId, email: shown.email };
    state.activeAccount = selected;
    state.signInRequired = selected === null;
    if (selected) state.endedSession = null; // someone is signed in again, here or in another tab
    if ((selected?.accountId ?? null) !== previous) {
      // Another account (or none) is active now: its profile has to be loaded afresh.
      state.profile = null;
      state.authenticating = false;
      state.hasAuthenticated = false;
    }
  }

  async function loadAccounts(): Promise<void> {
    state.loadingAccounts = true;
    try {
      await apply(await broker.api.snapshot());
    } finally {
      state.loadingAccounts = false;
      state.hasLoadedAccounts = true;
    }
  }

  async function switchAccount(accountId: string): Promise<void> {
    await broker.api.select(accountId);
    await apply({ accounts: state.accounts, selectedId: accountId });
    state.signInRequired = false;
  }

  /**
   * Signs the active account out of this device; the other saved accounts stay. It names the
   * account this page shows: never one another tab switched to that this page has not heard of.
   */
  async function signOut(): Promise<void> {
    const shown = state.activeAccount;
    if (shown) await broker.api.signOut(shown.accountId);
    await loadAccounts();
    vanished = null; // signed out here, by hand: no message says why
    state.activeAccount = null;
    state.profile = null;
    state.signInRequired = true;
  }

  /** Keeps the saved accounts but selects none, so the account picker shows. */
  async function chooseAnotherAccount(): Promise<void> {
    await broker.api.select(null);
    await loadAccounts();
  }

  async function signIn(credentials: SignInCredentials): Promise<SignInResult> {
    const result = await broker.api.signIn(credentials);
    if (result.ok) await loadAccounts();
    return result;
  }

  /** Loads the active account's profile and refreshes its saved label, email and picture; failures are only logged. */
  async function authenticate(): Promise<void> {
    const account = state.activeAccount;
    state.authenticating = true;
    try {
      const response = await broker.fetch('/api/v1/auth/profile');
      if (!response.ok) throw new ApiError(response.status, await response.text());
      const profile = profileSchema.parse(await response.json());
      if (state.activeAccount?.accountId !== account?.accountId) return; // switched meanwhile
      state.profile = profile;
      const saved = { label: profile.full_name, email: profile.email, profilePicture: profile.profile_picture };
      if (account && (account.label !== saved.label || account.email !== saved.email || account.profilePicture !== saved.profilePicture)) {
        await broker.api.updateAccount(account.accountId, saved);
      }
    } catch (error) {
      console.error('Loading the profile failed', error);
    } finally {
      // A load for an account switched away from meanwhile says nothing about the one active now.
      if (state.activeAccount?.accountId === account?.accountId) {
        state.authenticating = false;
        state.hasAuthenticated = true;
      }
    }
  }

  let authenticating: { accountId: string; done: Promise<void> } | undefined;
  /** Authenticates the active account once; later calls wait for that one. */
  function ensureAuthenticated(): Promise<void> {
    const account = state.activeAccount;
    if (!account || state.hasAuthenticated) return Promise.resolve();
    if (authenticating?.accountId !== account.accountId) {
      const done: Promise<void> = authenticate().finally(() => {
        if (authenticating?.done === done) authenticating = undefined;
      });
      authenticating = { accountId: account.accountId, done };
    }
    return authenticating.done;
  }

  /** The profile could not be loaded (offline, or the server failed): load it again. */
  function reloadProfile(): Promise<void> {
    if (state.activeAccount && state.hasAuthenticated && !state.profile) state.hasAuthenticated = false;
    return ensureAuthenticated();
  }

  /** Another tab (or the broker itself) changed the accounts: follow it. */
  async function onBrokerEvent(event: BrokerEvent): Promise<void> {
    // Sign In then says why the account is gone, and for which address (a revoked or expired session).
    const shown = state.activeAccount ?? vanished;
    if (event.type === 'signed-out' && event.accountId === shown?.accountId) state.endedSession = { email: shown.email };
    await apply(event.snapshot);
  }

  return { state, loadAccounts, switchAccount, signOut, chooseAnotherAccount, signIn, authenticate, ensureAuthenticated, reloadProfile, onBrokerEvent };
}

/**
 * The page's fetch: each call names the account this page shows, so one another tab switched
 * away from is refused, not answered for the other account. When it is, this page had missed
 * the switch: it reloads the accounts before it shows the refusal.
 */
export function fetchAsShown(session: Session, fetch: BrokerConnection['fetch']): BrokerConnection['fetch'] {
  return async (input, init) => {
    const shown = session.state.activeAccount?.accountId;
    if (!shown) return fetch(input, init);
    const headers = new Headers(init?.headers);
    headers.set(ACCOUNT_HEADER, shown);
    const response = await fetch(input, { ...init, headers });
    if (response.status === 409 && response.headers.has(ACCOUNT_SWITCHED_HEADER)) await session.loadAccounts();
    return response;
  };
}
