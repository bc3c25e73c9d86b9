import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseWithTwoServices } from '../../tests/support/api-service-row';
import type { Database } from './database';
import { changedRows, firstRow, preparedQuery, preparedQueryPerCount } from './prepared-query';

const serviceNamed = preparedQuery((db, value) => db.selectFrom('api_services').select(['id', 'name']).where('client_id', '=', value<string>('clientId')));
const rename = preparedQuery((db, value) => db.updateTable('api_services').set({ name: value('name') }).where('id', '=', value<string>('id')));

describe.each(['sqlite', 'postgres'] as const)('prepared queries on %s', (kind) => {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => void ({ db, close } = await databaseWithTwoServices(kind)));
  afterAll(() => close());

  it('binds fresh values on every run of the one compiled statement', async () => {
    expect(firstRow(await serviceNamed(db, { clientId: 'client-a' }))).toEqual({ id: 'a', name: 'Service a' });
    expect(firstRow(await serviceNamed(db, { clientId: 'client-b' }))).toEqual({ id: 'b', name: 'Service b' });
    expect(firstRow(await serviceNamed(db, { clientId: "client-a' or '1'='1" }))).toBeUndefined();
  });

  it('counts changed rows, and runs inside a transaction that can roll back', async () => {
    expect(changedRows(await rename(db, { id: 'a', name: 'Renamed' }))).toBe(1);
    expect(changedRows(await rename(db, { id: 'missing', name: 'Nobody' }))).toBe(0);
    await expect(
      db.transaction().execute(async (tx) => {
        expect(changedRows(await rename(tx, { id: 'b', name: 'Rolled back' }))).toBe(1);
        expect(firstRow(await serviceNamed(tx, { clientId: 'client-b' }))?.name).toBe('Rolled back');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(firstRow(await serviceNamed(db, { clientId: 'client-a' }))?.name).toBe('Renamed');
    expect(firstRow(await serviceNamed(db, { clientId: 'client-b' }))?.name).toBe('Service b');
  });

  it('compiles a query per count of values, each once', async () => {
    const servicesNamed = preparedQueryPerCount((database, value, count) =>
      database.selectFrom('api_services').select('id').where('client_id', 'in', Array.from({ length: count }, (_, at) => value<string>(String(at)))).orderBy('id'),
    );
    expect(servicesNamed(2)).toBe(servicesNamed(2));
    expect((await servicesNamed(1)(db, { 0: 'client-b' })).rows).toEqual([{ id: 'b' }]);
    expect((await servicesNamed(2)(db, { 0: 'client-b', 1: 'client-a' })).rows).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('refuses a run with a value missing', async () => {
    await expect(serviceNamed(db, {})).rejects.toThrow('no value for placeholder clientId');
  });

  it('refuses a query whose placeholder Kysely would not bind as a parameter', async () => {
    const inlined = preparedQuery((database, value) => database.selectFrom('api_services').select('id').orderBy(value<'id'>('column')));
    await expect(inlined(db, { column: 'id' })).rejects.toThrow('a placeholder was inlined into');
    const dropped = preparedQuery((database, value) => {
      value('unused');
      return database.selectFrom('api_services').select('id');
    });
    await expect(dropped(db, { unused: 'x' })).rejects.toThrow('placeholders not bound as parameters: unused');
  });
});

describe('on PostgreSQL, prepared queries are named statements', () => {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => void ({ db, close } = await databaseWithTwoServices('postgres')));
  afterAll(() => close());

  const namedOnThisConnection = async (connection: Database) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'hg\\_%'`.execute(connection)).rows.map((row) => row.statement);

  it('parsed once per connection, while other queries stay unnamed', async () => {
    await db.connection().execute(async (connection) => {
      expect(await namedOnThisConnection(connection)).toEqual([]);
      await connection.selectFrom('api_services').select('id').where('client_id', '=', 'client-a').execute();
      expect(await namedOnThisConnection(connection)).toEqual([]);
      await serviceNamed(connection, { clientId: 'client-a' });
      expect(firstRow(await serviceNamed(connection, { clientId: 'client-b' }))).toEqual({ id: 'b', name: 'Service b' });
      const named = await namedOnThisConnection(connection);
      expect(named).toHaveLength(1);
      expect(named[0]).toContain('"client_id" = $1');
    });
  });

  it('still answers when the server has lost the statements (DISCARD ALL, a connection pooler)', async () => {
    await db.connection().execute(async (connection) => {
      await serviceNamed(connection, { clientId: 'client-a' });
      await sql`deallocate all`.execute(connection);
      expect(firstRow(await serviceNamed(connection, { clientId: 'client-b' }))?.id).toBe('b');
    });
  });

  it('still answers when a newer replica adds a column to a table a statement selects * from', async () => {
    const everything = preparedQuery((database, value) => database.selectFrom('api_services').selectAll().where('id', '=', value<string>('id')));
    await db.connection().execute(async (connection) => {
      expect(firstRow(await everything(connection, { id: 'a' }))?.client_id).toBe('client-a');
      await sql`alter table api_services add column added_later text`.execute(db);
      const row = firstRow(await everything(connection, { id: 'a' })) as Record<string, unknown> | undefined;
      expect(row?.client_id).toBe('client-a');
      expect(row).toHaveProperty('added_later', null);
    });
  });
});
