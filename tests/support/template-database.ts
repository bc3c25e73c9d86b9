import type { TestProject } from 'vitest/node';
import { SigningKeys } from '../../server/keys/signing-keys';
import { createTestDatabase, dropWithCopies, openTestDatabase, testDatabaseKind } from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated database with its signing keys, which each test app's is copied from (see startTestApp). */
    templateDatabase: string;
  }
}

/**
 * Global setup of the integration projects: one database, migrated and with its signing keys made,
 * which each test app's database is a copy of. Creating and migrating a PostgreSQL database took
 * 200-260 ms a test on a slow VM, a copy about 100; making the RSA key took 140 on either kind.
 * The keys carry no time that matters here: made then, they sign as if made at the test's start.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env?.TEST_DATABASE === 'postgres' ? 'postgres' : testDatabaseKind();
  const template = await createTestDatabase(kind);
  const { db } = await openTestDatabase(template);
  await new SigningKeys(db, Date.now).ensure();
  await db.destroy();
  project.provide('templateDatabase', template.template);
  return () => dropWithCopies(template);
}
