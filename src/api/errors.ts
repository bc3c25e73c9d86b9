import { errorBodySchema } from '../../contract/errors';

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
  let message = text.trim();
  try {
    const body = errorBodySchema.safeParse(JSON.parse(text));
    if (body.success) message = body.data.error;
  } catch {
    // a plain-text body is the message itself
  }
  return capitalise(message || UNEXPECTED);
}

/** The message to show for any failure: an API error's own, else the error's, else the fallback. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return capitalise(error.message);
  return capitalise(UNEXPECTED);
}
