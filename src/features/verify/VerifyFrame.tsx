import { Center, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { progressOf, VERIFY_STEPS, type VerifyStep } from './verify-steps';

/** The card every verification step sits in, with the progress bar over the three steps. */
export function VerifyFrame({ step, title, subtitle, children }: { step: VerifyStep; title: string; subtitle: string; children: ReactNode }) {
  const percent = progressOf(step);
  const current = step === 'email' ? 0 : step === 'avatar' ? 1 : 2;
  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={480}>
        <Stack gap="lg">
          <Stack gap={6}>
            <Progress value={percent} size="sm" radius="xl" aria-label="Verification progress" />
            <Group justify="space-between" gap={4}>
              {VERIFY_STEPS.map((label, index) => (
                <Text key={label} size="xs" fw={index === current ? 700 : 500} c={index <= current ? 'blue' : 'dimmed'}>
                  {label}
                </Text>
              ))}
            </Group>
          </Stack>
          <Stack gap={4}>
            <Title order={1} fz={24}>
              {title}
            </Title>
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
