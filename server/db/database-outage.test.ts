import { describe, expect, it } from 'vitest';
import { databaseOutage } from './database-outage';
import { DatabaseProblem, postgresConnectionProblem, postgresQueryProblem } from './database-problems';

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('a PostgreSQL failure', () => {
  it('is an outage when the server is shutting down, starting, read-only, out of disk or connections, or cancelled the query, or it waited on a lock another session holds past lock_timeout, or the connection broke', () => {
    const at = '10.0.0.5:5432';
    expect(databaseOutage(postgresQueryProblem(failure('57P01', 'terminating connection due to administrator command'), at))).toBe(
      'PostgreSQL at 10.0.0.5:5432 cannot serve queries now: terminating connection due to administrator command (SQLSTATE 57P01)',
    );
    for (const code of ['57P03', '57014', '53100', '53300', '08006', '25006', '55P03']) expect(databaseOutage(postgresQueryProblem(failure(code, 'x'), at))).toContain(`(SQLSTATE ${code})`);
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

describe('a PostgreSQL connection refused over TLS', () => {
  it('names what to change when the server takes no TLS, or its certificate is not trusted, and does not wait for it to pass', () => {
    const noTls = postgresConnectionProblem(new Error('The server does not support SSL connections'), 'db:5432');
    expect(noTls).toEqual(new DatabaseProblem("PostgreSQL at db:5432 does not take TLS connections, which DATABASE_URL's sslmode asks for: remove sslmode from DATABASE_URL, or turn ssl on in postgresql.conf"));
    expect((noTls as DatabaseProblem).passing).toBe(false);
    for (const code of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID']) {
      const refused = postgresConnectionProblem(failure(code, 'self-signed certificate'), 'db:5432') as DatabaseProblem;
      expect([refused.message, refused.passing]).toEqual([`cannot connect to PostgreSQL at db:5432: its TLS certificate is not trusted (${code}); name its CA with sslrootcert=/path/to/ca.pem in DATABASE_URL, or, on a network you trust, sslmode=no-verify`, false]);
    }
  });
});
