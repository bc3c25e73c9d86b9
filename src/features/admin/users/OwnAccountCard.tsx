import { Paper, Stack, Text, Title } from '@mantine/core';
import { ButtonLink } from '../../../ui/links';

/** In place of a change an administrator may not make to their own account here: where to make it. */
export function OwnAccountCard({ title, what }: { title: string; what: string }) {
  return (
    <Paper withBorder radius="md" p="lg" maw={560}>
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="lg">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          This is your own account: change {what} on Personal Info, which asks for your current password.
        </Text>
        <ButtonLink to="/personal-info" variant="default">
          Open Personal Info
        </ButtonLink>
      </Stack>
    </Paper>
  );
}
