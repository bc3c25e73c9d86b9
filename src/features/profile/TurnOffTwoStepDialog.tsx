import { twoStepStatusSchema, twoStepTurnOffSchema, type TwoStepStatus } from '../../../contract/two-step';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { PasswordCheckDialog } from './PasswordCheckDialog';

/** Turning two-step sign-in off asks for the password: whoever holds only this device's session cannot. */
export function TurnOffTwoStepDialog({ onClose, onDone }: { onClose: () => void; onDone: (status: TwoStepStatus) => void }) {
  const session = useSession();
  return (
    <PasswordCheckDialog
      id="turn-off-two-step"
      title="Turn off two-step sign-in"
      submitLabel="Turn Off"
      color="red"
      action="Turning off two-step sign-in"
      schema={twoStepTurnOffSchema}
      onSubmit={async (body) => onDone(await callApi(session.connection, 'DELETE', '/api/v1/auth/two-step', twoStepStatusSchema, body))}
      onClose={onClose}
    >
      Signing in will ask for your password only. You can remove Home Guard from your authenticator app afterwards.
    </PasswordCheckDialog>
  );
}
