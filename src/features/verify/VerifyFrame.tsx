import { Group, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { CenteredCard } from '../../ui/CenteredCard';
import { progressOf, stepIndex, VERIFY_STEPS, type VerifyStep } from './verify-steps';
import { VerifyExit } from './VerifyExit';

/** The card every verification step sits in, with the progress bar over the three steps. */
export function VerifyFrame({ step, title, subtitle, children }: { step: VerifyStep; title: string; subtitle: string; children: ReactNode }) {
  const current = stepIndex(step);
  return (
    <CenteredCard width={480}>
      <Stack gap={6}>
        <Progress value={progressOf(step)} size="sm" radius="xl" aria-label="Verification progress" />
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
      <VerifyExit />
    </CenteredCard>
  );
}
