import type { TestProject } from 'vitest/node';
import { createTestDatabase, openTestDatabase } from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database the tests' apps copy theirs from (see startTestApp). */
    postgresTemplate: string;
  }
}

/**
 * Global setup of the PostgreSQL project: one migrated database, which each test's database is
 * copied from. Creating one and running the migrations took 200-260 ms a test on a slow VM; a copy
 * takes about 100.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createTestDatabase('postgres');
  await (await openTestDatabase(template)).db.destroy();
  project.provide('postgresTemplate', template.name!);
  return () => template.drop();
}
