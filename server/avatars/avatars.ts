import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database';
import { normaliseAvatar } from './avatar-image';

/** Profile pictures, kept in the database and served from an unguessable URL per upload. */
export class Avatars {
  constructor(
    private readonly db: Database,
    private readonly publicUrl: string,
    private readonly clock: () => number,
  ) {}

  /** Stores a new picture for the user, replacing (and deleting) the old one; returns its URL. */
  async replace(userId: string, upload: Buffer): Promise<string> {
    const { bytes, contentType } = await normaliseAvatar(upload);
    const id = randomBytes(24).toString('base64url');
    const url = `${this.publicUrl}/avatars/${id}.webp`;
    const now = this.clock();
    await this.db.transaction().execute(async (tx) => {
      // The user's row first: its lock makes uploads at once take turns on PostgreSQL. Otherwise,
      // under READ COMMITTED, each DELETE misses the other's uncommitted picture and both stay.
      await tx.updateTable('users').set({ profile_picture: url, avatar_verified: 1, updated_at: now }).where('id', '=', userId).execute();
      await tx.deleteFrom('avatars').where('user_id', '=', userId).execute();
      await tx.insertInto('avatars').values({ id, user_id: userId, content_type: contentType, bytes, created_at: now }).execute();
    });
    return url;
  }

  find(id: string) {
    return this.db.selectFrom('avatars').select(['content_type', 'bytes']).where('id', '=', id).executeTakeFirst();
  }
}
