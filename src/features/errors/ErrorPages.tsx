import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { ButtonLink } from '../../ui/links';
import { LockIcon } from '../../ui/icons';

/** Shown by the root route, outside the signed-in shell: it is the page's main landmark itself. */
export function NotFoundPage() {
  return (
    <Center component="main" mih="60dvh" p="md">
      <Stack align="center" ta="center" gap="sm">
        <Title order={1}>404 - Not Found</Title>
        <Text c="dimmed">There is no page at this address.</Text>
        <ButtonLink to="/" variant="light">
          Go home
        </ButtonLink>
      </Stack>
    </Center>
  );
}

export function NotAllowedPage() {
  return (
    <Center mih="60dvh" p="md">
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" color="red" variant="light">
          <LockIcon size={30} />
        </ThemeIcon>
        <Title order={1}>Access denied</Title>
        <Text c="dimmed">this resource is not allowed</Text>
        <ButtonLink to="/" variant="light">
          Go home
        </ButtonLink>
      </Stack>
    </Center>
  );
}
