import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { afterEach, expect, it } from 'vitest';
import { deviceWithAccounts, savedAccount } from '../../sw/broker/device-with-accounts';
import { createSession } from '../session/session-store';
import type { AppSession } from '../session/start-session';
import { useFormDraft } from './form-draft';
import { SessionContext } from './session-context';

let root: Root | undefined;
afterEach(() => {
  root?.unmount();
  root = undefined;
  sessionStorage.clear();
  document.body.replaceChildren();
});

/**
 * A session on a device with Ada's account saved: selected (signed in), or not, as after the
 * server ended it (the guards are sending the person to sign in).
 */
async function deviceSession(selected: 'ada' | null): Promise<AppSession> {
  const { broker: api } = await deviceWithAccounts([savedAccount('ada', 'Ada')], selected);
  const session = createSession({ api, fetch: () => Promise.reject(new Error('these tests load no profile')) });
  await session.loadAccounts();
  return session as AppSession;
}

function Form({ onDefaults }: { onDefaults: (defaults: Record<string, string>) => void }) {
  const draft = useFormDraft('test-form');
  onDefaults(draft.defaults);
  return (
    <form onChange={draft.save}>
      <input name="full_name" defaultValue={draft.defaults.full_name} />
      <input name="is_admin" type="checkbox" defaultChecked={draft.defaults.is_admin === 'on'} />
      <input name="password" type="password" />
      <input name="repeat_password" type="text" autoComplete="new-password" />
    </form>
  );
}

/** The form mounted afresh, as after a reload: the defaults it starts from. */
function mount(session: AppSession): Record<string, string> {
  root?.unmount();
  const element = document.body.appendChild(document.createElement('div'));
  root = createRoot(element);
  let defaults: Record<string, string> = {};
  flushSync(() =>
    root!.render(
      <SessionContext.Provider value={session}>
        <Form onDefaults={(given) => (defaults = given)} />
      </SessionContext.Provider>,
    ),
  );
  return defaults;
}

/** Types into a field as the browser does: React hears of a value set through the element's own setter only. */
function type(name: string, value: string | boolean): void {
  const field = document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
  if (typeof value === 'boolean') return field.click();
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

it('keeps what was typed for the way back after signing in again, never a password, even one shown as text', async () => {
  const session = await deviceSession(null);
  expect(mount(session)).toEqual({});
  type('full_name', 'Grace Hopper');
  type('is_admin', true);
  type('password', 'Secret-pass1');
  type('repeat_password', 'Secret-pass1');
  expect(sessionStorage.getItem('guard-draft:test-form')).not.toContain('Secret-pass1');
  expect(mount(session)).toEqual({ full_name: 'Grace Hopper', is_admin: 'on' });
  expect(document.querySelector<HTMLInputElement>('input[name="full_name"]')!.value).toBe('Grace Hopper');
});

it('no longer starts from a draft over an hour old', async () => {
  const session = await deviceSession(null);
  mount(session);
  type('full_name', 'Grace Hopper');
  const key = 'guard-draft:test-form';
  const kept = JSON.parse(sessionStorage.getItem(key)!) as { at: number };
  sessionStorage.setItem(key, JSON.stringify({ ...kept, at: Date.now() - 59 * 60_000 }));
  expect(mount(session)).toEqual({ full_name: 'Grace Hopper', is_admin: '' });
  sessionStorage.setItem(key, JSON.stringify({ ...kept, at: Date.now() - 61 * 60_000 }));
  expect(mount(session)).toEqual({});
});

it('forgets the draft when the form is left for another page while signed in: given up, not interrupted', async () => {
  const session = await deviceSession('ada');
  mount(session);
  type('full_name', 'Grace Hopper');
  expect(sessionStorage.getItem('guard-draft:test-form')).toContain('Grace Hopper');
  expect(mount(session)).toEqual({});
});
