import { connectBroker, type BrokerConnection } from '../broker/connect';
import { deviceTraits } from '../broker/device-traits';
import { createSession, type Session } from './session-store';

export type AppSession = Session & { connection: BrokerConnection };

/** Connects to the broker, opens the vault and loads the saved accounts. */
export async function startSession(): Promise<AppSession> {
  const connection = await connectBroker();
  const session = createSession(connection);
  await connection.api.init(deviceTraits());
  connection.subscribe((event) => void session.onBrokerEvent(event));
  await session.loadAccounts();
  return Object.assign(session, { connection });
}
