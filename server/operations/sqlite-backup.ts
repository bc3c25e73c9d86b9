import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/**
 * A consistent copy of a live SQLite database (SQLite's online backup API: the server keeps
 * serving while it runs). Returns the number of pages copied.
 */
export async function backupSqlite(databaseFile: string, target: string): Promise<number> {
  if (!existsSync(databaseFile)) throw new Error(`no database at ${databaseFile}`);
  if (existsSync(target)) throw new Error(`${target} exists already; choose a new file`);
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true, mode: 0o700 });
  // The copy holds what the database does (signing keys, password hashes): its owner's only.
  closeSync(openSync(target, 'wx', 0o600));
  const source = new SqliteDatabase(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await source.backup(target);
    return totalPages;
  } finally {
    source.close();
  }
}
