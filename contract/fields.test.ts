import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailField, newPasswordField, phoneField, requiredMultilineText, requiredText, typedEmailField, withRepeatedPassword } from './fields';

const messages = (schema: ReturnType<typeof requiredText>, value: string) => schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
const C0_AND_DEL = [...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)), '\u007f'];

describe('one-line text fields', () => {
  const name = requiredText('Full name');

  it('refuse every C0 control character and DEL, wherever it is', () => {
    for (const control of C0_AND_DEL) {
      for (const value of [`Sam${control}Smith`, `Sam${control}`, `${control}Sam`]) {
        expect(messages(name, value), JSON.stringify(value)).toContain('Full name must not contain line breaks or other control characters');
      }
    }
  });

  it('refuse the C1 controls, Unicode line and paragraph separators, and bidirectional overrides', () => {
    for (const control of ['\u0085', '\u009b', '\u2028', '\u2029', '\u202e', '\u202a', '\u2066', '\u2069']) {
      expect(messages(name, `Sam${control}Your account will be deleted`), JSON.stringify(control)).toEqual(['Full name must not contain line breaks or other control characters']);
    }
  });

  it('take letters of any script, punctuation and spaces, trimmed', () => {
    expect(name.parse('  Zoë O’Brien-Łukasz 李 ')).toBe('Zoë O’Brien-Łukasz 李');
    expect(name.parse('מרים כהן')).toBe('מרים כהן'); // right to left, with no control of its own
    expect(name.parse('Jean\u00a0Dupont')).toBe('Jean\u00a0Dupont'); // a no-break space is a space
    expect(messages(name, '   ')).toEqual(['Full name is required']);
  });

  it('refuse text that shows nothing, but take names with joiners, marks and emoji in them', () => {
    for (const blank of ['\u200b', '\u00ad', '\ufeff', '\u3164', '\u115f\u1160', '\u2800', '\u0301', '\u200d \u200c', '\u2060\u3000']) {
      expect(messages(name, blank), JSON.stringify(blank)).toEqual(['Full name is required']);
    }
    for (const shown of ['Zoe\u0301', 'Ana\u00adMaria', '\u0646\u0627\u200c\u0645', '\ud83d\udc68\u200d\ud83d\udcbb Sam', '\u2764']) {
      expect(messages(name, shown), JSON.stringify(shown)).toEqual([]);
    }
  });
});

describe('multi-line text fields', () => {
  const description = requiredMultilineText('Description', 1000);

  it('keep the line breaks and tabs a textarea gives, and refuse the other controls', () => {
    expect(description.parse('Dashboards\r\nfor\tthe house\n')).toBe('Dashboards\r\nfor\tthe house');
    for (const control of [...C0_AND_DEL.filter((c) => !'\t\n\r'.includes(c)), '\u0085', '\u2028', '\u202e']) {
      expect(messages(description, `Dash${control}boards`), JSON.stringify(control)).toEqual(['Description must not contain control characters other than line breaks and tabs']);
    }
  });
});

describe('emails', () => {
  it('an account is given only an address shown as it is: no invisible characters, no dot ending the domain', () => {
    for (const hidden of ['\u200b', '\u2060', '\u00ad', '\u200e', '\ufeff']) {
      for (const email of [`ad${hidden}min@example.com`, `admin@exam${hidden}ple.com`]) expect(emailField.safeParse(email).success, JSON.stringify(email)).toBe(false);
    }
    for (const email of ['admin@example.com.', 'admin@.example.com', 'admin@example..com', 'admin@example.']) expect(emailField.safeParse(email).error?.issues[0]?.message, email).toBe('Invalid email');
    for (const email of ['admin@example.com', 'zoë.o-brien+tag@bücher.example.de', 'a.b@c.d']) expect(emailField.parse(email)).toBe(email);
  });

  it('one typed to sign in or for a reset keeps the loose pattern, so an account given such an address earlier still signs in', () => {
    expect(typedEmailField.parse('admin@example.com.')).toBe('admin@example.com.');
    expect(typedEmailField.parse('ad\u200bmin@example.com')).toBe('ad\u200bmin@example.com');
    expect(typedEmailField.safeParse('not-an-email').error?.issues[0]?.message).toBe('Invalid email');
  });
});

describe('new passwords', () => {
  it('take letters, capitals and digits of any script', () => {
    for (const password of ['Κωδικός2024', 'ПАРОЛЬдлинный7', 'Passwort-1', 'Ölfässer٣x']) expect(newPasswordField.safeParse(password).success, password).toBe(true);
    expect(newPasswordField.safeParse('ωωωωωωω1').error?.issues.map((issue) => issue.message)).toEqual(['Password should contain at least 1 uppercase character']);
    expect(newPasswordField.safeParse('12345678!').error?.issues.map((issue) => issue.message)).toEqual(['Password must contain characters', 'Password should contain at least 1 uppercase character']);
  });
});

describe('phone numbers', () => {
  it('null, as the profile shows a missing one, or blank, is none', () => {
    for (const value of [null, undefined, '', '   ']) expect(phoneField.parse(value)).toBeUndefined();
    expect(phoneField.parse(' +1 555 0100 ')).toBe('+1 555 0100');
  });
});

describe('a password typed twice', () => {
  const form = withRepeatedPassword(z.object({ password: z.string() }), 'Repeat password');
  const said = (value: unknown) => form.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

  it('says the second does not match the first, under the second', () => {
    expect(said({ password: 'Valid-pass1', repeat_password: 'Valid-pass2' })).toEqual(['repeat_password: Password does not match']);
    expect(said({ password: 'Valid-pass1', repeat_password: 'Valid-pass1' })).toEqual([]);
  });

  it('says only what is missing while either is missing: no mismatch yet', () => {
    expect(said({ password: 'Valid-pass1', repeat_password: '' })).toEqual(['repeat_password: Repeat password is required']);
    expect(said({ password: 'Valid-pass1' })).toEqual(['repeat_password: Repeat password is required']);
    expect(said({ repeat_password: 'Valid-pass1' })).toEqual([expect.stringMatching(/^password: /)]);
  });
});
