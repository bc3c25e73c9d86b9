import { describe, expect, it } from 'vitest';
import { databaseOutage } from './database-outage';
import { postgresQueryProblem } from './database-problems';

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('a PostgreSQL failure', () => {
  it('is an outage when the server is shutting down, starting, read-only, out of disk or connections, or cancelled the query, or the connection broke', () => {
    const at = '10.0.0.5:5432';
    expect(databaseOutage(postgresQueryProblem(failure('57P01', 'terminating connection due to administrator command'), at))).toBe(
      'PostgreSQL at 10.0.0.5:5432 cannot serve queries now: terminating connection due to administrator command (SQLSTATE 57P01)',
    );
    for (const code of ['57P03', '57014', '53100', '53300', '08006', '25006']) expect(databaseOutage(postgresQueryProblem(failure(code, 'x'), at))).toContain(`(SQLSTATE ${code})`);
    expect(databaseOutage(postgresQueryProblem(failure('ECONNRESET', 'read ECONNRESET'), at))).toBe('lost the connection to PostgreSQL at 10.0.0.5:5432: ECONNRESET');
    expect(databaseOutage(postgresQueryProblem(new Error('Connection terminated unexpectedly'), at))).toBe('lost the connection to PostgreSQL at 10.0.0.5:5432: Connection terminated unexpectedly');
  });

  it('is a bug, left as it is, when the query itself was wrong', () => {
    for (const code of ['23505', '42P01', '22P02', '40001']) {
      const error = failure(code, 'x');
      expect(postgresQueryProblem(error, 'db:5432')).toBe(error);
      expect(databaseOutage(error)).toBeUndefined();
    }
  });
});

it('counts a SQLite file that is locked, full, unreadable or read-only as an outage, and a wrong statement as a bug', () => {
  for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY_DBMOVED', 'SQLITE_CANTOPEN']) {
    expect(databaseOutage(failure(code, 'x'))).toBe(`SQLite could not use the database file: x (${code})`);
  }
  for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_BUSYNESS', 'ENOENT']) expect(databaseOutage(failure(code, 'x'))).toBeUndefined();
});
