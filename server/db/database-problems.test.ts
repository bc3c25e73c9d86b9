import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDataDir } from './database-problems';

describe('makeDataDir', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the file in the way, whether it is the directory itself or one of its parents', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hg-datadir-'));
    const file = path.join(dir, 'afile');
    writeFileSync(file, '');
    expect(() => makeDataDir(path.join(file, 'data'))).toThrow(`cannot create the data directory ${path.join(file, 'data')}: ${file} is a file, not a directory`);
    expect(() => makeDataDir(file)).toThrow(`cannot create the data directory ${file}: ${file} is a file, not a directory`);
  });

  it('makes the directory, with its parents, for its owner alone', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hg-datadir-'));
    makeDataDir(path.join(dir, 'a', 'data'));
    expect(statSync(path.join(dir, 'a', 'data')).mode & 0o777).toBe(0o700);
    expect(() => makeDataDir(path.join(dir, 'a', 'data')), 'there already').not.toThrow();
  });
});
