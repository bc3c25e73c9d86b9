import { z } from 'zod';

/** Every failed `/api/v1/*` answer outside the OAuth endpoints has this body. */
export const errorBodySchema = z.object({
  error: z.string(),
  /** The request field to blame, when one is: validation failures, and refusals such as a wrong code (AppError's constructors set it). */
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * The message of a failed answer's body (spec §8): its `error` field, else the text itself, else
 * empty. An HTML page (a proxy's "502 Bad Gateway") is not a message to show anyone: empty too.
 */
export function errorTextOf(text: string): ErrorBody {
  try {
    const body = errorBodySchema.safeParse(JSON.parse(text));
    if (body.success) return body.data;
  } catch {
    // not JSON: a plain-text body is the message itself
  }
  const plain = text.trim();
  return { error: /^<(!doctype|html|head|body)\b/i.test(plain) ? '' : plain };
}
