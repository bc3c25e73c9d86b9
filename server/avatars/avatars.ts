import { randomBytes } from 'node:crypto';
import { isForeignKeyViolation } from '../db/constraint-violations';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import { normaliseAvatar } from './avatar-image';

/**
 * Profile pictures, kept in the database and served from an unguessable address per upload. The
 * account keeps the address's path (`/avatars/….webp`): the app reads it on its own origin, and
 * services are given it whole with the PUBLIC_URL of the day (pictureUrl). Stored whole, every
 * picture broke when PUBLIC_URL moved to https, as the README tells people to do.
 */
export class Avatars {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
  ) {}

  /** Stores a new picture for the user, replacing (and deleting) the old one; returns its path. */
  async replace(userId: string, upload: Buffer): Promise<string> {
    const { bytes, contentType } = await normaliseAvatar(upload);
    const id = randomBytes(24).toString('base64url');
    const url = `/avatars/${id}.webp`;
    const now = this.clock();
    const stored = this.db.transaction().execute(async (tx) => {
      // The user's row first: its lock makes uploads at once take turns on PostgreSQL. Otherwise,
      // under READ COMMITTED, each DELETE misses the other's uncommitted picture and both stay.
      await tx.updateTable('users').set({ profile_picture: url, avatar_verified: 1, updated_at: now }).where('id', '=', userId).execute();
      await tx.deleteFrom('avatars').where('user_id', '=', userId).execute();
      await tx.insertInto('avatars').values({ id, user_id: userId, content_type: contentType, bytes, created_at: now }).execute();
    });
    // An account deleted meanwhile by an administrator: its token no longer stands for anyone.
    await stored.catch((error: unknown) => {
      throw isForeignKeyViolation(error) ? AppError.invalidToken() : error;
    });
    return url;
  }

  find(id: string) {
    return this.db.selectFrom('avatars').select(['content_type', 'bytes']).where('id', '=', id).executeTakeFirst();
  }
}

/** A stored picture's address as a service is given it (OIDC Core §5.1 `picture`: a URL): whole, on `publicUrl`. */
export const pictureUrl = (stored: string | null, publicUrl: string): string | undefined => (stored === null ? undefined : new URL(stored, publicUrl).href);
