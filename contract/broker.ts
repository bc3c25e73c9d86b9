import { z } from 'zod';

/**
 * The token broker's surface, as the page sees it (over Comlink to the service worker, or the
 * same module loaded in the page where no worker runs). No method returns a token.
 */

/** A saved account as the page may see it: the spec's stored account without its tokens. */
export const accountSummarySchema = z.object({
  accountId: z.string(),
  label: z.string(),
  email: z.string(),
  profilePicture: z.string().nullable(),
  updatedAt: z.string(),
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;
/** What the profile can change in a saved account: an administrator may rename it or change its email. */
export type AccountDetails = Pick<AccountSummary, 'label' | 'email' | 'profilePicture'>;

export type BrokerSnapshot = {
  accounts: AccountSummary[];
  /** The selected (active) account id, or null when none is selected. */
  selectedId: string | null;
};

/** Browser and screen traits the device id is hashed from (the worker cannot see the screen). */
export type DeviceTraits = {
  userAgent: string;
  language: string;
  platform: string;
  screen: string;
  timezone: string;
};

/** What Sign In sends: `code` only once the server asked for the authenticator app's (two-step sign-in). */
export type SignInCredentials = { email: string; password: string; code?: string | undefined };

/** A refusal names the request field it is about, if any (`code`: the server wants, or refused, the app's code). */
export type SignInResult = { ok: true; account: AccountSummary } | { ok: false; status: number; error: string; field?: string | undefined };

export interface BrokerApi {
  /** Prepares the vault (device id, encryption key); safe to call from every tab, every time. */
  init(traits: DeviceTraits): Promise<BrokerSnapshot>;
  snapshot(): Promise<BrokerSnapshot>;
  /** Signs in with the login endpoint; the tokens stay with the broker; the account becomes active. */
  signIn(credentials: SignInCredentials): Promise<SignInResult>;
  /** Makes an account the active one; null clears the selection (the accounts stay saved). */
  select(accountId: string | null): Promise<void>;
  /**
   * Forgets the account the page shows as active on this device, then clears the selection if it
   * still names that account (not one another tab chose since). Safe to send again.
   */
  signOut(accountId: string): Promise<void>;
  remove(accountId: string): Promise<void>;
  /** Stores a fresher label, email and picture for an account (after loading its profile). */
  updateAccount(accountId: string, changes: AccountDetails): Promise<void>;
}

/** Told to every tab (BroadcastChannel BROKER_CHANNEL) whenever the account set or selection changes. */
export type BrokerEvent =
  | { type: 'changed'; snapshot: BrokerSnapshot }
  /** A refresh failed: the account was removed and must sign in again. */
  | { type: 'signed-out'; accountId: string; snapshot: BrokerSnapshot };

export const BROKER_CHANNEL = 'guard-broker';

/**
 * Names, on a page's API call, the account the page shows. Another tab may have switched accounts
 * and this page not heard yet: the broker then refuses the call (409) rather than answer it for
 * the other account. The broker removes it before the call leaves.
 */
export const ACCOUNT_HEADER = 'x-guard-account';
/** Marks that 409 as the broker's (a server's 409 is another refusal): the page then reloads the accounts. */
export const ACCOUNT_SWITCHED_HEADER = 'x-guard-account-switched';

/** Posted to the service worker with a MessagePort on which it exposes the broker (Comlink). */
export const BROKER_CONNECT_MESSAGE = 'guard-connect';
