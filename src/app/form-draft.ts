import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSession } from './session-context';

const PREFIX = 'guard-draft:';
const SENT = ':sent';
// Long enough to sign in again and come back; a draft older than this is not the person's intent any more.
const KEEP_MS = 60 * 60_000;

type Draft = { at: number; values: Record<string, string> };
type Sent = { at: number; values: string; key: string };

/**
 * What a form held, kept in this tab while it is typed in, so that nothing typed is lost when the
 * page goes away unsubmitted: a session that ended makes the guards send the person to sign in,
 * and back (a reload keeps it too). The form starts from the draft (over its defaults) until a
 * submission succeeds, or the person cancels or leaves for another page. Passwords are never kept.
 *
 * The Idempotency-Key of what was last sent is kept with it: Create sent again after an answer
 * that never came (and a reload, or signing in again) gets what the first sending made.
 *
 * An edit form's `edit_version` (a hidden field) is kept with its draft. A draft of a record that
 * another administrator has changed since is dropped: saved, it would be refused (409) as made
 * from what the record was, and restored after every reload it would be refused again.
 */
export function useFormDraft(id: string, defaults: Record<string, string> = {}) {
  const key = PREFIX + id;
  const session = useSession();
  const [initial] = useState(() => {
    const draft = read<Draft>(key);
    if (draft && defaults.edit_version !== undefined && draft.values.edit_version !== defaults.edit_version) {
      forget(key);
      return defaults;
    }
    return { ...defaults, ...draft?.values };
  });
  const sent = useRef(read<Sent>(key + SENT));
  // Left for another page, the form was given up: opened again, it starts from what is saved, not
  // from old typing over it. Left because the session ended, the draft waits for the way back.
  useEffect(
    () => () => {
      const { signInRequired, activeAccount } = session.state;
      if (!signInRequired && activeAccount) forget(key);
    },
    [key, session],
  );
  return {
    defaults: initial,
    save: (event: FormEvent<HTMLFormElement>) => write(key, event.currentTarget),
    clear: () => {
      forget(key);
      sent.current = undefined;
    },
    /** The Idempotency-Key for sending these values: the last one while they are the same, else a new one. */
    sendingKey: (value: unknown): string => {
      const values = JSON.stringify(value);
      if (sent.current?.values !== values) {
        sent.current = { at: Date.now(), values, key: crypto.randomUUID() };
        store(key + SENT, sent.current);
      }
      return sent.current.key;
    },
  };
}

function forget(key: string): void {
  sessionStorage.removeItem(key);
  sessionStorage.removeItem(key + SENT);
}

function read<T extends { at: number }>(key: string): T | undefined {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key) ?? 'null') as T | null;
    return kept && Date.now() - kept.at < KEEP_MS ? kept : undefined;
  } catch {
    return undefined;
  }
}

function store(key: string, kept: Draft | Sent): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(kept));
  } catch {
    // storage full or refused: the form works as before, without a draft
  }
}

function write(key: string, form: HTMLFormElement): void {
  const values: Record<string, string> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) || !element.name || isPassword(element)) continue;
    values[element.name] = element instanceof HTMLInputElement && element.type === 'checkbox' ? (element.checked ? 'on' : '') : element.value;
  }
  store(key, { at: Date.now(), values });
}

/** A password field, also while its eye button shows it as text (its type is then 'text'). */
function isPassword(element: HTMLInputElement | HTMLTextAreaElement): boolean {
  return (element instanceof HTMLInputElement && element.type === 'password') || /password/i.test(element.autocomplete);
}
