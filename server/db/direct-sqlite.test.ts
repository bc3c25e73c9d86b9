import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseWithTwoServices } from '../../tests/support/api-service-row';
import type { Database } from './database';
import { onDirectSqlite } from './direct-sqlite';
import { firstRow, preparedQuery } from './prepared-query';

const nameOf = preparedQuery((db, value) => db.selectFrom('api_services').select('name').where('id', '=', value<string>('id')));
const rename = preparedQuery((db, value) => db.updateTable('api_services').set({ name: value('name') }).where('id', '=', value<string>('id')));

/**
 * Opens a Kysely transaction that renames service a and holds the connection until `end` is
 * called; `end(false)` rolls it back. Resolves `opened` once its write is in.
 */
function openTransaction(db: Database) {
  let release!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (release = resolve));
  let signalOpened!: () => void;
  const opened = new Promise<void>((resolve) => (signalOpened = resolve));
  const finished = db
    .transaction()
    .execute(async (tx) => {
      await tx.updateTable('api_services').set({ name: 'inside' }).where('id', '=', 'a').execute();
      signalOpened();
      if (!(await decided)) throw new Error('rolled back');
    })
    .catch(() => undefined);
  return { opened, end: async (commit: boolean) => (release(commit), finished) };
}

describe('SQLite statements run outside Kysely only when no transaction is open', () => {
  let db: Database;
  let close: () => Promise<void>;
  const name = async (id: string) => firstRow(await nameOf(db, { id }))?.name;
  beforeEach(async () => void ({ db, close } = await databaseWithTwoServices('sqlite')));
  afterEach(() => close());

  it('a prepared write sent while another transaction is open is not rolled back with it', async () => {
    const transaction = openTransaction(db);
    await transaction.opened;
    const written = rename(db, { id: 'b', name: 'outside' });
    await transaction.end(false);
    await written;
    expect([await name('a'), await name('b')]).toEqual(['Service a', 'outside']);
  });

  it('a prepared read sent while another transaction is open does not see its uncommitted writes', async () => {
    const transaction = openTransaction(db);
    await transaction.opened;
    const read = nameOf(db, { id: 'a' });
    await transaction.end(false);
    expect(firstRow(await read)?.name).toBe('Service a');
  });

  it('a direct transaction waits for an open one instead of joining it', async () => {
    const transaction = openTransaction(db);
    await transaction.opened;
    const written = onDirectSqlite(db, (direct) => direct.transaction(() => rename.now(db, direct, { id: 'b', name: 'outside' })));
    await transaction.end(false);
    await written;
    expect([await name('a'), await name('b')]).toEqual(['Service a', 'outside']);
  });

  it('a direct transaction that throws leaves nothing behind', async () => {
    const failing = onDirectSqlite(db, (direct) =>
      direct.transaction(() => {
        rename.now(db, direct, { id: 'a', name: 'half done' });
        throw new Error('second write failed');
      }),
    );
    await expect(failing).rejects.toThrow('second write failed');
    expect(await name('a')).toBe('Service a');
  });

  it('is not offered for a Kysely transaction, whose statements stay inside it', async () => {
    await db.transaction().execute(async (tx) => {
      expect(await onDirectSqlite(tx, () => 'direct')).toBeUndefined();
      await rename(tx, { id: 'a', name: 'in tx' });
    });
    expect(await name('a')).toBe('in tx');
  });
});
