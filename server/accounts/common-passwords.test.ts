import { expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords';
import { COMMON_PASSWORDS } from './common-passwords-list';

const listed = COMMON_PASSWORDS.split(/\s+/).filter(Boolean);

it('knows every listed password, in any letter case, and only those', () => {
  expect(listed).toHaveLength(2426);
  for (const password of listed) expect(isCommonPassword(password.toUpperCase()), password).toBe(true);
  expect(isCommonPassword('pAsSwOrD1')).toBe(true);
  for (const password of ['Quiet-harbour7', 'Password1-of-kim', 'Password', '']) expect(isCommonPassword(password), password).toBe(false);
});

it('lists only what the password rules could let through: 8 characters or more, a letter and a digit', () => {
  expect(listed.filter((password) => password.length < 8 || !/[a-z]/.test(password) || !/\d/.test(password) || password !== password.toLowerCase())).toEqual([]);
});
