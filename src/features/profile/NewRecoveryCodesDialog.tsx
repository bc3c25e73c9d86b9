import { useState } from 'react';
import { newRecoveryCodesSchema, recoveryCodesSchema } from '../../../contract/two-step';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { PasswordCheckDialog } from './PasswordCheckDialog';
import { RecoveryCodesDialog } from './RecoveryCodesDialog';

/**
 * New recovery codes in place of the old ones. It asks for the password: whoever holds only this
 * device's session must not get a way in that outlives it.
 */
export function NewRecoveryCodesDialog({ onClose, onDone }: { onClose: () => void; onDone: (count: number) => void }) {
  const session = useSession();
  const [codes, setCodes] = useState<string[] | null>(null);

  if (codes) return <RecoveryCodesDialog codes={codes} onDone={() => onDone(codes.length)} />;

  return (
    <PasswordCheckDialog
      id="new-recovery-codes"
      title="New recovery codes"
      submitLabel="Make New Codes"
      action="Making new recovery codes"
      schema={newRecoveryCodesSchema}
      onSubmit={async (body) => setCodes((await callApi(session.connection, 'POST', '/api/v1/auth/two-step/recovery-codes', recoveryCodesSchema, body)).recovery_codes)}
      onClose={onClose}
    >
      You get ten new codes, and the old ones stop working, used or not.
    </PasswordCheckDialog>
  );
}
