import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isForeignKeyViolation, isUniqueViolation } from './constraint-violations';

// The codes come from the driver: these pin better-sqlite3's names (PostgreSQL's SQLSTATEs are
// met by the integration tests' races on that project).
let sqlite: SqliteDatabase.Database;
beforeEach(() => {
  sqlite = new SqliteDatabase(':memory:');
  sqlite.pragma('foreign_keys = ON');
  sqlite.exec('create table people (id text primary key, email text not null unique); create table notes (person_id text not null references people (id))');
  sqlite.prepare('insert into people values (?, ?)').run('p1', 'ada@example.com');
});
afterEach(() => sqlite.close());

/** The error SQLite throws for `statement`, which must fail. */
function refusal(statement: string, ...values: unknown[]): unknown {
  try {
    sqlite.prepare(statement).run(...values);
  } catch (error) {
    return error;
  }
  throw new Error(`${statement} was not refused`);
}

it('tells a second row with a taken unique value or primary key apart from other failures', () => {
  const sameEmail = refusal('insert into people values (?, ?)', 'p2', 'ada@example.com');
  const sameId = refusal('insert into people values (?, ?)', 'p1', 'bob@example.com');
  expect([isUniqueViolation(sameEmail), isUniqueViolation(sameId)]).toEqual([true, true]);
  expect([isForeignKeyViolation(sameEmail), isForeignKeyViolation(sameId)]).toEqual([false, false]);
});

it('tells a row for a person deleted meanwhile apart from other failures', () => {
  const nobody = refusal('insert into notes values (?)', 'deleted');
  expect([isForeignKeyViolation(nobody), isUniqueViolation(nobody)]).toEqual([true, false]);
});

it('takes no other failure, nor what is no error, for either', () => {
  for (const other of [refusal('insert into people values (?, null)', 'p3'), new Error('SQLITE_CONSTRAINT_UNIQUE'), null, undefined, 'SQLITE_CONSTRAINT_UNIQUE', { code: 23505 }]) {
    expect([isUniqueViolation(other), isForeignKeyViolation(other)], String(other)).toEqual([false, false]);
  }
});
