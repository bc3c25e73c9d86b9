import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0000-initial';
import * as verification from './2026-11-22T0100-verification';
import * as oidc from './2026-11-22T0200-oidc';
import * as oneSigningKey from './2026-11-22T0300-one-signing-key-per-alg';
import * as refreshTokenSuccessor from './2026-11-23T0000-refresh-token-successor';
import * as serviceTokenSelectors from './2026-11-24T0000-service-token-selectors';
import * as refreshTokenSelectors from './2026-11-24T0100-refresh-token-selectors';
import * as passwordResets from './2026-11-29T0000-password-resets';
import * as authenticatorApps from './2026-12-01T0000-authenticator-apps';
import * as recoveryCodes from './2026-12-01T0100-recovery-codes';
import * as signInMethods from './2026-12-01T0200-sign-in-methods';
import * as groups from './2026-12-01T0300-groups';
import * as launchUrls from './2026-12-01T0400-launch-urls';
import * as usernames from './2026-12-02T0000-usernames';
import * as twoStepServices from './2026-12-02T0100-two-step-services';
import * as publicClients from './2026-12-02T0200-public-clients';
import * as sessionsByUserAndTime from './2026-12-02T0300-sessions-by-user-and-time';
import * as disabledAccounts from './2026-12-02T0400-disabled-accounts';
import * as auditLog from './2026-12-02T0500-audit-log';
import * as codeRedirectUriSent from './2026-12-03T0000-code-redirect-uri-sent';
import * as firstAdministrator from './2026-12-03T0100-first-administrator';
import * as serviceCreationKeys from './2026-12-03T0200-service-creation-keys';
import * as emailsInNfc from './2026-12-03T0300-emails-in-nfc';
import * as authenticatorAppSetups from './2026-12-04T0000-authenticator-app-setups';
import * as secondStepsSetUpUnproved from './2026-12-05T0000-second-steps-set-up-unproved';
import * as avatarPaths from './2026-12-05T0100-avatar-paths';
import * as prunedThrough from './2026-12-06T0000-pruned-through';
import * as throttleJudging from './2026-12-06T0100-throttle-judging';
import * as allowedGroupsWhereMissing from './2026-12-06T0200-allowed-groups-where-missing';

/** Every migration, in order. Append new files here; never rename or edit a landed one. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0000-initial': initial,
  '2026-11-22T0100-verification': verification,
  '2026-11-22T0200-oidc': oidc,
  '2026-11-22T0300-one-signing-key-per-alg': oneSigningKey,
  '2026-11-23T0000-refresh-token-successor': refreshTokenSuccessor,
  '2026-11-24T0000-service-token-selectors': serviceTokenSelectors,
  '2026-11-24T0100-refresh-token-selectors': refreshTokenSelectors,
  '2026-11-29T0000-password-resets': passwordResets,
  '2026-12-01T0000-authenticator-apps': authenticatorApps,
  '2026-12-01T0100-recovery-codes': recoveryCodes,
  '2026-12-01T0200-sign-in-methods': signInMethods,
  '2026-12-01T0300-groups': groups,
  '2026-12-01T0400-launch-urls': launchUrls,
  '2026-12-02T0000-usernames': usernames,
  '2026-12-02T0100-two-step-services': twoStepServices,
  '2026-12-02T0200-public-clients': publicClients,
  '2026-12-02T0300-sessions-by-user-and-time': sessionsByUserAndTime,
  '2026-12-02T0400-disabled-accounts': disabledAccounts,
  '2026-12-02T0500-audit-log': auditLog,
  '2026-12-03T0000-code-redirect-uri-sent': codeRedirectUriSent,
  '2026-12-03T0100-first-administrator': firstAdministrator,
  '2026-12-03T0200-service-creation-keys': serviceCreationKeys,
  '2026-12-03T0300-emails-in-nfc': emailsInNfc,
  '2026-12-04T0000-authenticator-app-setups': authenticatorAppSetups,
  '2026-12-05T0000-second-steps-set-up-unproved': secondStepsSetUpUnproved,
  '2026-12-05T0100-avatar-paths': avatarPaths,
  '2026-12-06T0000-pruned-through': prunedThrough,
  '2026-12-06T0100-throttle-judging': throttleJudging,
  '2026-12-06T0200-allowed-groups-where-missing': allowedGroupsWhereMissing,
};
