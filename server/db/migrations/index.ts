import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0000-initial';

/** Every migration, in order. Append new files here; never rename or edit a landed one. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0000-initial': initial,
};
