import { createHash } from 'node:crypto';

/**
 * A record's edit version: the fields its edit form shows, fingerprinted. An edit sent with an
 * older one was made from a form read before another administrator's edit, which saving it would
 * undo. Not updated_at: a sign-in, a new picture or a toggle would then refuse edits that change
 * none of the form's fields.
 */
export const editVersion = (fields: unknown[]): string => createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
