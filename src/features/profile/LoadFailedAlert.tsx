import { Alert, Button } from '@mantine/core';

/** A Personal Info card whose data did not load: why, and Try again. */
export function LoadFailedAlert({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {message}{' '}
      <Button variant="subtle" size="compact-sm" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
