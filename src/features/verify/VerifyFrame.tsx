import { Group, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { CenteredCard } from '../../ui/CenteredCard';
import { progressOf, stepIndex, VERIFY_STEPS, type VerifyStep } from './verify-steps';
import { VerifyExit } from './VerifyExit';

/** The card every verification step sits in, with the progress bar over the three steps. */
export function VerifyFrame({ step, title, subtitle, children }: { step: VerifyStep; title: string; subtitle: string; children: ReactNode }) {
  const current = stepIndex(step);
  const percent = progressOf(step);
  return (
    <CenteredCard width={480}>
      <Stack gap={6}>
        {/* Read as the step it is ("Step 1 of 3: Verify Email"), not Mantine's "0%". */}
        <Progress.Root size="sm" radius="xl">
          <Progress.Section value={percent} withAria={false} role="progressbar" aria-label="Verification progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={`Step ${current + 1} of ${VERIFY_STEPS.length}: ${VERIFY_STEPS[current]}`} />
        </Progress.Root>
        {/* A list whose current step says so, not by its bold blue alone (WCAG 1.3.1). */}
        <Group component="ol" aria-label="Verification steps" justify="space-between" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
          {VERIFY_STEPS.map((label, index) => (
            <Text component="li" key={label} size="xs" fw={index === current ? 700 : 500} c={index <= current ? 'blue' : 'dimmed'} aria-current={index === current ? 'step' : undefined}>
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
