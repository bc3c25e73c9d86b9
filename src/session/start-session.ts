import { connectBroker, type BrokerConnection } from '../broker/connect';
import { deviceTraits } from '../broker/device-traits';
import { createSession, fetchAsShown, type Session } from './session-store';

const ONLINE_SETTLE_MS = 1_000;

export type AppSession = Session & { connection: BrokerConnection };

/** Connects to the broker, opens the vault and loads the saved accounts. */
export async function startSession(): Promise<AppSession> {
  const connected = await connectBroker();
  const connection: BrokerConnection = { ...connected, fetch: (input, init) => fetchShown(input, init) };
  const session = createSession(connection);
  const fetchShown = fetchAsShown(session, connected.fetch);
  await connection.api.init(deviceTraits());
  connection.subscribe((event) => void session.onBrokerEvent(event));
  await session.loadAccounts();
  // A profile that could not be loaded offline is loaded once the connection is back. 'online'
  // can come a moment before the worker's own connection works: the load waits a second.
  window.addEventListener('online', () => setTimeout(() => void session.reloadProfile(), ONLINE_SETTLE_MS));
  return Object.assign(session, { connection });
}
