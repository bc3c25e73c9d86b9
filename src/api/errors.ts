import { errorTextOf } from '../../contract/errors';

/** A first-party API answer other than 200/201 (spec §7). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(messageFromResponseText(text));
    this.name = 'ApiError';
  }
}

export const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const UNEXPECTED = 'unexpected error happened';

/** Spec §8: the `error` field of the body, else the body text, else 'unexpected error happened'; capitalised. */
export function messageFromResponseText(text: string): string {
  return capitalise(errorTextOf(text).error || UNEXPECTED);
}

// What fetch rejects with when no answer came, in Chromium, Firefox and Safari.
const NO_ANSWER = /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/;
export const UNREACHABLE = 'Home Guard cannot be reached. Check the connection and try again.';

export const NOT_UNDERSTOOD = 'Home Guard answered in a way this page does not understand. Reload the page.';

/** The message to show for any failure: an API error's own, else the error's, else the fallback. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  // The browser's own words for "no answer" say nothing to most people.
  if (error instanceof Error && error.name === 'TypeError' && NO_ANSWER.test(error.message)) return UNREACHABLE;
  // An answer that is not JSON, or not the shape this page expects (a page older than the server,
  // or a proxy's page with status 200): the parser's own words are no message for a person.
  if (error instanceof Error && (error.name === 'SyntaxError' || error.name === 'ZodError')) return NOT_UNDERSTOOD;
  if (error instanceof Error && error.message) return capitalise(error.message);
  return capitalise(UNEXPECTED);
}
