import { sql, type Kysely } from 'kysely';

/**
 * Emails are kept in Unicode NFC from now on (users-repository's normaliseEmail), so that 'josé'
 * typed with a combining accent is the same address as 'josé' typed with one letter. An address
 * stored in another form is brought to NFC, unless its NFC twin is already someone's: two accounts
 * for one mailbox, one of them most likely a look-alike. That one keeps its address as stored, and
 * signing in with the address now finds the other; an administrator can give it a new one.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; email: string }>`select id, email from users order by created_at, id`.execute(db);
  const taken = new Set(rows.map((row) => row.email));
  for (const { id, email } of rows) {
    const nfc = email.normalize('NFC');
    if (nfc === email || taken.has(nfc)) continue;
    taken.add(nfc);
    await sql`update users set email = ${nfc} where id = ${id}`.execute(db);
  }
}

// The forms the addresses had before are not kept; NFC addresses work as they did.
export async function down(): Promise<void> {}
