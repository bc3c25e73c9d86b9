import SqliteDatabase from 'better-sqlite3';
import { expect, it } from 'vitest';
import { withStatementCache } from './statement-cache';

it('prepares each SQL text once, keeping the newest ones up to its size', () => {
  const sqlite = new SqliteDatabase(':memory:');
  const cache = withStatementCache(sqlite, () => {}, 2);
  try {
    const one = cache.prepare('select 1');
    expect(cache.prepare('select 1')).toBe(one);
    const two = cache.prepare('select 2');
    expect(cache.prepare('select 1')).toBe(one);
    cache.prepare('select 3'); // the third: the oldest one goes
    expect(cache.prepare('select 2')).toBe(two);
    expect(cache.prepare('select 1')).not.toBe(one);
    expect(cache.prepare('select 1').all([])).toEqual([{ 1: 1 }]);
  } finally {
    sqlite.close();
  }
});

it('closes the database after what must happen first', () => {
  const sqlite = new SqliteDatabase(':memory:');
  const order: string[] = [];
  withStatementCache(sqlite, () => order.push(sqlite.open ? 'before, open' : 'before, closed')).close();
  expect([order, sqlite.open]).toEqual([['before, open'], false]);
});
