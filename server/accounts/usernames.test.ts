import { describe, expect, it } from 'vitest';
import { usernameField } from '../../contract/fields';
import { firstFreeUsername, usernameFromEmail } from './usernames';

describe('usernameFromEmail', () => {
  it.each([
    ['jane.doe@example.com', 'jane.doe'],
    ['Jane.Doe+news@example.com', 'jane.doe-news'],
    ['zoë@example.com', 'zoe'],
    ['Groß.Æsa@example.de', 'gross.aesa'],
    ['łukasz.søren@example.pl', 'lukasz.soren'],
    ['..a__b--c..@example.com', 'a_b-c'],
    ['+++@example.com', 'member'],
    ['名前@example.com', 'member'],
    [`${'a'.repeat(34)}.b.c@example.com`, 'a'.repeat(34)],
  ])('%s gives %s', (email, username) => {
    expect(usernameFromEmail(email)).toBe(username);
  });

  it('always gives a username the contract accepts, with room for a suffix', () => {
    const emails = ['a@b.cc', '"odd name"@x.io', `${'x.'.repeat(60)}@x.io`, '-_-@x.io', 'Ärger-ÜBER.größe@x.de', '1@x.io'];
    for (const email of emails) {
      const name = usernameFromEmail(email);
      expect(usernameField.safeParse(`${name}-999`).success, `${email} → ${name}`).toBe(true);
    }
  });
});

describe('firstFreeUsername', () => {
  it('adds -2, -3… until one is free', () => {
    expect(firstFreeUsername('ann', () => false)).toBe('ann');
    const taken = new Set(['ann', 'ann-2', 'ann-3']);
    expect(firstFreeUsername('ann', (name) => taken.has(name))).toBe('ann-4');
  });

  it("passes over the names Gitea keeps for its pages, which it would refuse at the first sign-in", () => {
    for (const reserved of ['admin', 'user', 'login', 'robots.txt', 'jane.keys', 'x.png']) expect(firstFreeUsername(reserved, () => false), reserved).toBe(`${reserved}-2`);
    expect(firstFreeUsername('admins', () => false)).toBe('admins');
    expect(firstFreeUsername('keys.jane', () => false)).toBe('keys.jane');
  });
});

describe('usernameField', () => {
  it('lower-cases and trims, and refuses what Gitea would', () => {
    expect(usernameField.parse('  Jane.Doe ')).toBe('jane.doe');
    for (const bad of ['', 'a..b', '-ab', 'ab_', 'a b', 'ä', 'x'.repeat(41)]) expect(usernameField.safeParse(bad).success, bad).toBe(false);
  });
});
