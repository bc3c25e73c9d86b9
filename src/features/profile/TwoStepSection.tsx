import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { twoStepStatusSchema, type TwoStepStatus } from '../../../contract/two-step';
import { OutcomeAlert, type Outcome } from '../../ui/OutcomeAlert';
import { dayOf } from './dates';
import { LoadFailedAlert } from './LoadFailedAlert';
import { ProfileCard } from './ProfileCard';
import { TurnOffTwoStepDialog } from './TurnOffTwoStepDialog';
import { TurnOnTwoStepDialog } from './TurnOnTwoStepDialog';
import { useOwnData } from './use-own-data';

/** Two-step sign-in with an authenticator app: its state, and the dialogs that turn it on and off. */
export function TwoStepSection() {
  const { data: status, setData: setStatus, error, reload } = useOwnData('/api/v1/auth/two-step', twoStepStatusSchema);
  const [dialog, setDialog] = useState<'on' | 'off' | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const open = (which: 'on' | 'off') => {
    setOutcome(null);
    setDialog(which);
  };
  const done = (next: TwoStepStatus, message: string) => {
    setDialog(null);
    setStatus(next);
    setOutcome({ kind: 'success', message });
  };

  return (
    <ProfileCard
      title="Two-Step Sign-In"
      description={
        status?.enabled
          ? `On since ${dayOf(status.since!)}. Signing in asks for your password and a code from your authenticator app.`
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
        </Group>
      )}
      {dialog === 'on' && <TurnOnTwoStepDialog onClose={() => setDialog(null)} onDone={(next) => done(next, 'Two-step sign-in is on. Next time you sign in, have your authenticator app ready.')} />}
      {dialog === 'off' && <TurnOffTwoStepDialog onClose={() => setDialog(null)} onDone={(next) => done(next, 'Two-step sign-in is off. Signing in asks for your password only.')} />}
    </ProfileCard>
  );
}
