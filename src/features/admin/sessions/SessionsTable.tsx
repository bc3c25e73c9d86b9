import { Button, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { callApi } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { useSession } from '../../../app/session-context';
import { z } from 'zod';
import { OutcomeAlert, type Outcome } from '../../../ui/OutcomeAlert';
import { DataTable, type Column } from '../shared/DataTable';
import { longDate, statusOf } from '../shared/format';

export type SessionRow = {
  id: string;
  user_id: string;
  user: { full_name: string; profile_picture: string | null };
  is_active: boolean;
  issued_at: string;
  expires_at: string | null;
  last_active: string | null;
  revoked_at: string | null;
};

export function SessionStatus({ session }: { session: SessionRow }) {
  const status = statusOf(session, Date.now());
  return (
    <Text size="sm" fw={600} c={status.red ? 'red' : 'green'}>
      {status.label}
    </Text>
  );
}

/** A paged session table with per-row revoke; after every revoke attempt the page reloads. */
export function SessionsTable<T extends SessionRow>({ label, rows, loading, columns, revokePath, onRevoked }: { label: string; rows: T[] | undefined; loading: boolean; columns: Array<Column<T>>; revokePath: string; onRevoked: () => void }) {
  const session = useSession();
  // Each row's revoke runs on its own: a second row revoked meanwhile keeps the first one marked.
  const [revoking, setRevoking] = useState<ReadonlySet<string>>(new Set());
  // Spec §8 only logs a failed revoke; said on screen too, or the button would seem to do nothing.
  const [failure, setFailure] = useState<Outcome>(null);
  // A success is said to screen readers only: the row's status and Revoked At show it.
  const [said, setSaid] = useState<string>();
  const table = useRef<HTMLDivElement>(null);
  const revoke = async (row: T) => {
    const id = row.id;
    setRevoking((ids) => new Set(ids).add(id));
    setFailure(null);
    setSaid(undefined);
    try {
      await callApi(session.connection, 'PATCH', `${revokePath}/${id}`, z.object({}));
      setSaid(`Revoked the session of ${row.user.full_name} issued ${longDate(row.issued_at)}.`);
      if (table.current) focusNextRevoke(table.current, id);
    } catch (error) {
      console.error('Revoking the session failed', error);
      setFailure({ kind: 'error', message: `The session was not revoked: ${errorMessage(error)}` });
    } finally {
      setRevoking((ids) => new Set([...ids].filter((other) => other !== id)));
      onRevoked();
    }
  };
  const all: Array<Column<T>> = [
    ...columns,
    { header: 'Issued At', cell: (s) => longDate(s.issued_at) },
    { header: 'Expires At', cell: (s) => longDate(s.expires_at) },
    { header: 'Last Active', cell: (s) => longDate(s.last_active) },
    { header: 'Revoked At', cell: (s) => longDate(s.revoked_at) },
    {
      header: 'Actions',
      // Disabled while its revoke runs (spec §2), and once revoked: there is nothing left to end.
      cell: (s) => (
        <Button size="xs" color="red" variant="filled" disabled={revoking.has(s.id) || s.revoked_at !== null} loading={revoking.has(s.id)} aria-label={`Revoke the session of ${s.user.full_name} issued ${longDate(s.issued_at)}`} data-revokes={s.id} onClick={() => void revoke(s)}>
          Revoke
        </Button>
      ),
    },
  ];
  return (
    <>
      <OutcomeAlert outcome={failure} />
      <div ref={table} tabIndex={-1} role="group" aria-label={label}>
        <DataTable label={label} rows={rows} columns={all} loading={loading} empty="No sessions found." minWidth={960} said={said} />
      </div>
    </>
  );
}

/**
 * A revoked session's button stays disabled, and the focus it had fell to the page's start
 * (WCAG 2.4.3): it goes on to the next session's Revoke, or the one before, or the table. Not
 * when the person has moved it elsewhere meanwhile.
 */
function focusNextRevoke(table: HTMLElement, revokedId: string): void {
  if (document.activeElement !== null && document.activeElement !== document.body) return;
  const buttons = [...table.querySelectorAll<HTMLButtonElement>('button[data-revokes]')];
  const at = buttons.findIndex((button) => button.dataset.revokes === revokedId);
  const open = (button: HTMLButtonElement) => !button.disabled;
  (buttons.slice(at + 1).find(open) ?? buttons.slice(0, Math.max(at, 0)).reverse().find(open) ?? table).focus();
}
