import { compileTestServer } from '../support/server-process';
import { register, verifyThroughApi, type Person } from './support/api';

/** The first account becomes the administrator: create it before any test so the others are regular users. */
export const E2E_ADMIN: Person = { name: 'Ada Admin', email: 'admin@e2e.test', password: 'Admin-secret1' };

export default async function globalSetup(): Promise<void> {
  // For the tests that start a server of their own.
  await compileTestServer();
  await register(E2E_ADMIN);
  await verifyThroughApi(E2E_ADMIN);
}
