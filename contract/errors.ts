import { z } from 'zod';

/** Every failed `/api/v1/*` answer outside the OAuth endpoints has this body. */
export const errorBodySchema = z.object({
  error: z.string(),
  /** Set on validation failures: the request field that was refused. */
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
