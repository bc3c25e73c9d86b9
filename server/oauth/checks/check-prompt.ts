import { OAuthError } from '../oauth-error';

/** The prompt values an authorization request may carry (published in the discovery document). */
export const PROMPTS = ['none', 'login', 'consent', 'select_account'];

/** prompt values (space separated); none cannot be combined with another. */
export function checkPrompt(prompt: string | undefined): string[] {
  const values = [...new Set((prompt ?? '').split(' ').filter(Boolean))];
  const unknown = values.filter((value) => !PROMPTS.includes(value));
  if (unknown.length > 0) throw new OAuthError('invalid_request', `Unsupported prompt: ${unknown.join(' ')}`);
  if (values.includes('none') && values.length > 1) throw new OAuthError('invalid_request', 'prompt=none cannot be combined with other values');
  return values;
}

/** max_age: a whole number of seconds. */
export function checkMaxAge(maxAge: string | undefined): number | null {
  if (maxAge === undefined) return null;
  if (!/^\d{1,9}$/.test(maxAge)) throw new OAuthError('invalid_request', 'max_age must be a whole number of seconds');
  return Number(maxAge);
}
