import { describe, expect, it } from 'vitest';
import { requiredMultilineText, requiredText } from './fields';

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

  it('take letters of any script, punctuation and spaces, trimmed', () => {
    expect(name.parse('  Zoë O’Brien-Łukasz 李 ')).toBe('Zoë O’Brien-Łukasz 李');
    expect(messages(name, '   ')).toEqual(['Full name is required']);
  });
});

describe('multi-line text fields', () => {
  const description = requiredMultilineText('Description', 1000);

  it('keep the line breaks and tabs a textarea gives, and refuse the other controls', () => {
    expect(description.parse('Dashboards\r\nfor\tthe house\n')).toBe('Dashboards\r\nfor\tthe house');
    for (const control of C0_AND_DEL.filter((c) => !'\t\n\r'.includes(c))) {
      expect(messages(description, `Dash${control}boards`), JSON.stringify(control)).toEqual(['Description must not contain control characters other than line breaks and tabs']);
    }
  });
});
