import { existsSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, sqliteFile } from './database';
import { sqliteOpenProblem } from './database-problems';

// Every Home Guard database has it from its first migration on.
const MIGRATIONS_TABLE = 'kysely_migration';

/**
 * Where the configuration points when it holds no Home Guard database (a typo in DATA_DIR or
 * DATABASE_URL), else undefined. Looks without creating or changing anything: opening SQLite
 * the usual way would create the file, and migrating would fill an empty database.
 */
export async function missingDatabase(options: { databaseUrl: string | undefined; dataDir: string }): Promise<string | undefined> {
  if (!options.databaseUrl) {
    const file = sqliteFile(options.dataDir);
    return existsSync(file) && sqliteHasMigrations(file) ? undefined : file;
  }
  const { db, location } = openDatabase(options);
  try {
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${MIGRATIONS_TABLE}) as found`.execute(db);
    return rows[0]?.found ? undefined : location;
  } finally {
    await db.destroy();
  }
}

function sqliteHasMigrations(file: string): boolean {
  let sqlite: SqliteDatabase.Database | undefined;
  try {
    sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    return sqlite.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(MIGRATIONS_TABLE) !== undefined;
  } catch (error) {
    throw sqliteOpenProblem(error, file);
  } finally {
    sqlite?.close();
  }
}
