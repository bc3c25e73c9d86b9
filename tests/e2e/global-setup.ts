import { register, verifyThroughApi, type Person } from './support/api';

/** The first account becomes the administrator: create it before any test so the others are regular users. */
export const E2E_ADMIN: Person = { name: 'Ada Admin', email: 'admin@e2e.test', password: 'Admin-secret1' };

export default async function globalSetup(): Promise<void> {
  await register(E2E_ADMIN);
  await verifyThroughApi(E2E_ADMIN);
}
