import { expect, it } from 'vitest';
import { AUDIT_EVENT_KINDS, type AuditEvent } from '../../contract/audit';
import { actorOf, describeAuditEvent } from './audit-events';

const line = (kind: AuditEvent['kind'], detail: string | null = null, service: string | null = null) => describeAuditEvent({ kind, detail, service: service === null ? null : { name: service, icon_url: null } });

it('words each kind of audit event, with what its detail says', () => {
  expect(line('signed-in', 'pwd')).toBe('Signed in');
  expect(line('signed-in', 'pwd otp mfa')).toBe('Signed in with two steps');
  expect(line('signed-in', 'pwd otp mfa recovery-code')).toBe('Signed in with a recovery code');
  expect(line('signed-out')).toBe('Signed out');
  expect(line('sign-in-refused', 'wrong-code')).toBe('Sign-in refused: wrong two-step code');
  expect(line('password-changed', 'reset-by-link')).toBe('Password reset with a mailed link');
  expect(line('password-reset-requested')).toBe('Password reset link mailed');
  expect(line('two-step-on')).toBe('Two-step sign-in turned on');
  expect(line('two-step-off')).toBe('Two-step sign-in turned off');
  expect(line('recovery-codes-renewed')).toBe('New recovery codes made');
  expect(line('account-created', 'registered')).toBe('Registered');
  expect(line('account-created', 'administrator')).toBe('Account created, as an administrator');
  expect(line('account-created')).toBe('Account created');
  expect(line('account-disabled')).toBe('Account disabled');
  expect(line('account-enabled')).toBe('Account enabled');
  expect(line('account-changed', 'email, is_admin')).toBe('Details changed: email, role');
  expect(line('account-changed', 'full_name, made-admin')).toBe('Details changed: name, made an administrator');
  expect(line('account-changed', 'admin-removed')).toBe('Details changed: no longer an administrator');
  expect(line('account-changed', 'full_name, email:ann@x.lan:ann@y.lan')).toBe('Details changed: name, email (ann@x.lan → ann@y.lan)');
  expect(line('account-deleted', 'Tom Temp <tom@example.com>')).toBe('Account deleted: Tom Temp <tom@example.com>');
  expect(line('user-session-revoked')).toBe('A device signed out');
  expect(line('user-session-revoked', 'other-devices:1')).toBe('1 other device signed out');
  expect(line('user-session-revoked', 'other-devices:3')).toBe('3 other devices signed out');
  expect(line('user-session-revoked', 'other-devices:12')).toBe('12 other devices signed out');
  expect(line('user-session-revoked', 'everywhere:2')).toBe('Signed out of every device and service');
  expect(line('user-session-revoked', 'everywhere:12')).toBe('Signed out of every device and service');
  // The service by its name now; by its name then when it is gone.
  expect(line('service-signed-in', null, 'Grafana')).toBe('Signed in to Grafana');
  expect(line('service-changed', 'Old Name', 'New Name')).toBe('Service changed: New Name');
  expect(line('service-changed', 'Grafana\nredirect_uris, two-step-not-required', 'Grafana')).toBe('Service changed: Grafana (redirect URIs, two-step sign-in no longer required)');
  expect(line('service-changed', 'Old Name\nname, made-public')).toBe('Service changed: Old Name (name, made a public client)');
  expect(line('service-created', 'Gitea')).toBe('Service added: Gitea');
  expect(line('service-turned-on', 'Gitea')).toBe('Service turned on: Gitea');
  expect(line('service-turned-off', 'Gitea')).toBe('Service turned off: Gitea');
  expect(line('service-credentials-regenerated', 'Gitea')).toBe('New credentials: Gitea');
  expect(line('service-deleted', 'Gitea')).toBe('Service deleted: Gitea');
  expect(line('service-session-revoked', null, 'Immich')).toBe('Signed out of Immich');
  expect(line('service-session-revoked', 'approval-only', 'Immich')).toBe('Approval withdrawn from Immich');
  // Its service deleted since: the detail is not a name.
  expect(line('service-session-revoked', 'approval-only')).toBe('Approval withdrawn from a service');
  expect(line('service-session-revoked')).toBe('Signed out of a service');
  expect(line('service-signed-in', 'pwd')).toBe('Signed in to a service');
  expect(line('token-reused', 'refresh-token')).toBe('Refresh token used twice: the device was signed out');
  expect(line('token-reused', 'code', 'Immich')).toBe('Code used twice at Immich: its session was ended');
  for (const kind of AUDIT_EVENT_KINDS) expect(line(kind, 'x', 'S')).toMatch(/^[A-Z1-9][^]*[^ :]$/);
});

it('tells who acted', () => {
  expect(actorOf({ kind: 'signed-in', actor_id: 'u', user_id: 'u' })).toBe('themselves');
  expect(actorOf({ kind: 'account-disabled', actor_id: 'a', user_id: 'u' })).toBe('administrator');
  expect(actorOf({ kind: 'password-changed', actor_id: null, user_id: 'u' })).toBe('command line');
  expect(actorOf({ kind: 'token-reused', actor_id: null, user_id: 'u' })).toBe('unknown');
  expect(actorOf({ kind: 'password-reset-requested', actor_id: null, user_id: 'u' })).toBe('unknown');
  expect(actorOf({ kind: 'sign-in-refused', actor_id: null, user_id: 'u' })).toBe('unknown');
});
