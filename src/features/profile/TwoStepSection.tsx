import { Button, Group } from '@mantine/core';
import { useRef, useState } from 'react';
import { twoStepStatusSchema, type TwoStepStatus } from '../../../contract/two-step';
import { OutcomeAlert, type Outcome } from '../../ui/OutcomeAlert';
import { dayOf } from './dates';
import { LoadFailedAlert } from './LoadFailedAlert';
import { NewRecoveryCodesDialog } from './NewRecoveryCodesDialog';
import { ProfileCard } from './ProfileCard';
import { TurnOffTwoStepDialog } from './TurnOffTwoStepDialog';
import { TurnOnTwoStepDialog } from './TurnOnTwoStepDialog';
import { useOwnData } from './use-own-data';

type Dialog = 'on' | 'off' | 'codes';

/** How many recovery codes are left; with none left, new ones are needed. */
const codesLeft = (count: number) => (count === 0 ? 'You have no recovery codes left: make new ones, in case you lose your phone.' : `You have ${count} recovery code${count === 1 ? '' : 's'} left, in case you lose your phone.`);

/** Two-step sign-in with an authenticator app: its state, its recovery codes, and the dialogs that change them. */
export function TwoStepSection() {
  const { data: status, setData: setStatus, error, reload } = useOwnData('/api/v1/auth/two-step', twoStepStatusSchema);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  // The dialogs mount open, so Mantine records no element to give focus back to: done here.
  const opener = useRef<HTMLElement | null>(null);

  const open = (which: Dialog) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOutcome(null);
    setDialog(which);
  };
  const close = () => {
    setDialog(null);
    requestAnimationFrame(() => opener.current?.focus());
  };
  const done = (next: TwoStepStatus, message: string) => {
    close();
    setStatus(next);
    setOutcome({ kind: 'success', message });
  };

  return (
    <ProfileCard
      title="Two-Step Sign-In"
      description={
        status?.enabled
          ? `On since ${dayOf(status.since!)}. Signing in asks for your password and a code from your authenticator app. ${codesLeft(status.recovery_codes_left)}`
          : 'Ask for a code from an authenticator app on your phone as well as your password, so a stolen password alone cannot sign in.'
      }
    >
      <OutcomeAlert outcome={outcome} />
      <LoadFailedAlert message={error} onRetry={reload} />
      {status && (
        <Group>
          <Button variant="default" onClick={() => open(status.enabled ? 'off' : 'on')}>
            {status.enabled ? 'Turn Off' : 'Turn On'}
          </Button>
          {status.enabled && (
            <Button variant="default" onClick={() => open('codes')}>
              New Recovery Codes
            </Button>
          )}
        </Group>
      )}
      {dialog === 'on' && <TurnOnTwoStepDialog onClose={close} onDone={(next) => done(next, 'Two-step sign-in is on. Next time you sign in, have your authenticator app ready.')} />}
      {dialog === 'codes' && status && (
        <NewRecoveryCodesDialog onClose={close} onDone={(count) => done({ ...status, recovery_codes_left: count }, 'New recovery codes are ready. The old ones no longer work.')} />
      )}
      {dialog === 'off' && <TurnOffTwoStepDialog onClose={close} onDone={(next) => done(next, 'Two-step sign-in is off. Signing in asks for your password only.')} />}
    </ProfileCard>
  );
}
