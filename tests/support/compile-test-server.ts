import { compileTestServer } from './server-process';

/** Vitest's global setup: the server the process, crash and replica tests start, compiled once. */
export default async function setup(): Promise<void> {
  await compileTestServer();
}
