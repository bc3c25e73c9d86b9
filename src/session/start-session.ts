import { ACCOUNT_HEADER } from '../../contract/broker';
import { connectBroker, type BrokerConnection } from '../broker/connect';
import { deviceTraits } from '../broker/device-traits';
import { createSession, type Session } from './session-store';

const ONLINE_SETTLE_MS = 1_000;

export type AppSession = Session & { connection: BrokerConnection };

/** Connects to the broker, opens the vault and loads the saved accounts. */
export async function startSession(): Promise<AppSession> {
  const connected = await connectBroker();
  // Each call names the account this page shows: one another tab switched away from is refused.
  const connection: BrokerConnection = {
    ...connected,
    fetch: (input, init) => {
      const shown = session.state.activeAccount?.accountId;
      if (!shown) return connected.fetch(input, init);
      const headers = new Headers(init?.headers);
      headers.set(ACCOUNT_HEADER, shown);
      return connected.fetch(input, { ...init, headers });
    },
  };
  const session = createSession(connection);
  await connection.api.init(deviceTraits());
  connection.subscribe((event) => void session.onBrokerEvent(event));
  await session.loadAccounts();
  // A profile that could not be loaded offline is loaded once the connection is back. 'online'
  // can come a moment before the worker's own connection works: the load waits a second.
  window.addEventListener('online', () => setTimeout(() => void session.reloadProfile(), ONLINE_SETTLE_MS));
  return Object.assign(session, { connection });
}
