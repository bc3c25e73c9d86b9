import { useEffect, useState, type FormEvent } from 'react';
import { useSession } from './session-context';

const PREFIX = 'guard-draft:';
// Long enough to sign in again and come back; a draft older than this is not the person's intent any more.
const KEEP_MS = 60 * 60_000;

type Draft = { at: number; values: Record<string, string> };

/**
 * What a form held, kept in this tab while it is typed in, so that nothing typed is lost when the
 * page goes away unsubmitted: a session that ended makes the guards send the person to sign in,
 * and back (a reload keeps it too). The form starts from the draft (over its defaults) until a
 * submission succeeds, or the person cancels or leaves for another page. Passwords are never kept.
 */
export function useFormDraft(id: string, defaults: Record<string, string> = {}) {
  const key = PREFIX + id;
  const session = useSession();
  const [initial] = useState(() => ({ ...defaults, ...read(key) }));
  // Left for another page, the form was given up: opened again, it starts from what is saved, not
  // from old typing over it. Left because the session ended, the draft waits for the way back.
  useEffect(
    () => () => {
      const { signInRequired, activeAccount } = session.state;
      if (!signInRequired && activeAccount) sessionStorage.removeItem(key);
    },
    [key, session],
  );
  return {
    defaults: initial,
    save: (event: FormEvent<HTMLFormElement>) => write(key, event.currentTarget),
    clear: () => sessionStorage.removeItem(key),
  };
}

function read(key: string): Record<string, string> {
  try {
    const draft = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Draft | null;
    return draft && Date.now() - draft.at < KEEP_MS ? draft.values : {};
  } catch {
    return {};
  }
}

function write(key: string, form: HTMLFormElement): void {
  const values: Record<string, string> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) || !element.name || element.type === 'password') continue;
    values[element.name] = element instanceof HTMLInputElement && element.type === 'checkbox' ? (element.checked ? 'on' : '') : element.value;
  }
  try {
    sessionStorage.setItem(key, JSON.stringify({ at: Date.now(), values } satisfies Draft));
  } catch {
    // storage full or refused: the form works as before, without a draft
  }
}
