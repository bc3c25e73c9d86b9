import { z } from 'zod';

/**
 * Field rules shared by the forms and the server. The messages are the spec's (section 5);
 * a missing value gets '{Field} is required' instead of zod's raw text.
 */

/**
 * What no one-line text may hold: the C0 controls and DEL, the C1 controls (NEL among them), the
 * Unicode line and paragraph separators, and the bidirectional embeddings, overrides and
 * isolates. A line break in a name would write paragraphs of its own into the plain text of every
 * mail that greets it ("Hello {name},"); the others are invisible on screen, rewrite what a
 * terminal shows of a log, or turn the text after them around.
 */
export const UNSAFE_IN_ONE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
// The same, but for the tab, line feed and carriage return a textarea gives.
const UNSAFE_IN_TEXTAREA = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/**
 * A required one-line text field: missing, non-text and blank values all read '{label} is
 * required'. Nothing of UNSAFE_IN_ONE_LINE, not even at the ends.
 */
export function requiredText(label: string, max = 200) {
  return textWithout(UNSAFE_IN_ONE_LINE, `${label} must not contain line breaks or other control characters`, label, max);
}

/** As `requiredText`, for a textarea: line breaks and tabs are its own, and never reach a mail. */
export function requiredMultilineText(label: string, max = 200) {
  return textWithout(UNSAFE_IN_TEXTAREA, `${label} must not contain control characters other than line breaks and tabs`, label, max);
}

/**
 * What shows nothing: format characters (zero-width space, soft hyphen, BOM), separators, marks with
 * nothing to mark, and the Hangul fillers and braille blank, letters and symbols that are blank.
 */
const SHOWS_NOTHING = /[\p{Cf}\p{Z}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/gu;

function textWithout(unsafe: RegExp, refused: string, label: string, max: number) {
  const required = `${label} is required`;
  return z
    .string({ error: required })
    .refine((value) => !unsafe.test(value), refused)
    .trim()
    .min(1, { error: required, abort: true })
    // A name of zero-width spaces alone would greet "Welcome, " and list a blank in every table.
    .refine((value) => value.replace(SHOWS_NOTHING, '') !== '', required)
    .max(max, `${label} must be at most ${max} characters long`);
}

// Loose on purpose (spec: "a loose pattern"): something@something.something, without spaces or
// the characters of address lists (`x<victim@example.com>` and `a@b.c;victim@example.com` are a
// mailbox other than the one stored to a mail program, and would slip past the unique-email rule).
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/**
 * An address an account is given: the loose pattern, and nothing that would let one mailbox hold
 * several accounts, each shown as the same address. No invisible format characters (zero-width
 * space, word joiner, soft hyphen, direction marks), and a domain of whole labels: `example.com.`
 * reaches the mailbox of `example.com`.
 */
const NEW_EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"\p{Cf}]+@[^\s@<>()[\]\\,;:"\p{Cf}.]+(?:\.[^\s@<>()[\]\\,;:"\p{Cf}.]+)+$/u;

/** The email an account is registered, created or changed with. */
export const emailField = requiredText('Email', 254).regex(NEW_EMAIL_PATTERN, 'Invalid email');

/**
 * An email typed to sign in or to ask for a reset: the loose pattern only, so an account given
 * its address before the rules above were tightened can still sign in.
 */
export const typedEmailField = requiredText('Email', 254).regex(EMAIL_PATTERN, 'Invalid email');

/** An admin list's search text, in the address and in the query to the server. */
export const SEARCH_MAX_LENGTH = 200;
export const searchField = z.string().max(SEARCH_MAX_LENGTH);

/** The highest page an admin list is asked for: far past any real list, short of a number that overflows. */
export const MAX_PAGE = 1_000_000;

export const PASSWORD_MIN_LENGTH = 8;
// argon2 cost grows with input length; no human password is longer than this.
export const PASSWORD_MAX_LENGTH = 256;

/** Only presence is checked when signing in (spec: "No length rules"). */
export const loginPasswordField = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`);

/** The password a signed-in person types to prove it is them: presence only, like signing in. */
export const currentPasswordField = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`);

/** The rules for choosing a new password. */
export const newPasswordField = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`)
  // Letters, capitals and digits of any script: Κωδικός2024 has all three.
  .regex(/\p{L}/u, 'Password must contain characters')
  .regex(/\p{Lu}/u, 'Password should contain at least 1 uppercase character')
  .regex(/\p{Nd}/u, 'Password should contain at least 1 digit');

/** Optional phone number: an empty string, or null as the profile shows a missing one, counts as absent. */
export const phoneField = z
  .string({ error: 'Phone number must be text' })
  .trim()
  .max(40, 'Phone number must be at most 40 characters long')
  .regex(/^[+0-9 ()./-]*$/, 'Invalid phone number')
  .nullish()
  .transform((value) => (value ? value : undefined));

/**
 * A form's schema plus `repeat_password`, which must equal `password`: compared as soon as both
 * are typed, even while other fields still have errors. `label` names the field in its message.
 */
export function withRepeatedPassword<Shape extends z.ZodRawShape & { password: z.ZodType<string> }>(schema: z.ZodObject<Shape>, label: string) {
  type Passwords = { password?: unknown; repeat_password?: unknown };
  const repeat = z.string({ error: `${label} is required` }).min(1, `${label} is required`);
  return schema.extend({ repeat_password: repeat }).refine((form) => (form as Passwords).password === (form as Passwords).repeat_password, {
    message: 'Password does not match',
    path: ['repeat_password'],
    when: ({ value }) => {
      const form = value as Passwords;
      return typeof form.password === 'string' && typeof form.repeat_password === 'string' && form.repeat_password !== '';
    },
  });
}

/** A group name as services match it in the `groups` claim: "family", "grafana-admins". */
const GROUP_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;

/** The groups an administrator puts a user in (services that ask for scope `groups` read them), or lets into a service. */
export const groupsField = z
  .array(z.string({ error: 'Each group must be a name' }).trim().regex(GROUP_NAME, 'A group name is up to 64 letters, digits, spaces and . _ -, starting with a letter or digit'), {
    error: 'Groups must be a list of names',
  })
  .max(50, 'At most 50 groups')
  .transform((names) => [...new Set(names)]);

export const USERNAME_MAX_LENGTH = 40;
// Gitea's rule, the strictest of the services that take a username from `preferred_username`.
const USERNAME = /^[a-z0-9]+(?:[._-][a-z0-9]+)*$/;

/** The name services that want one (Gitea, Nextcloud) give a person's account: stored lower-cased, one per person. */
export const usernameField = z
  .string({ error: 'Username is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Username is required')
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters long`)
  .regex(USERNAME, 'Username may have letters and digits, with single . _ or - between them');
