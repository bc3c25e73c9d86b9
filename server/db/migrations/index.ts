import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0000-initial';
import * as verification from './2026-11-22T0100-verification';

/** Every migration, in order. Append new files here; never rename or edit a landed one. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0000-initial': initial,
  '2026-11-22T0100-verification': verification,
};
