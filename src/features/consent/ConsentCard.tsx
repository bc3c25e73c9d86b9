import { ActionIcon, Avatar, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { AuthorizationCheck } from '../../../contract/oauth';
import { SCOPE_DESCRIPTIONS, type Scope } from '../../../contract/services';
import { AccountLine } from '../../ui/AccountLine';
import { CenteredCard } from '../../ui/CenteredCard';
import { ServerIcon, SwitchIcon } from '../../ui/icons';
import { OutcomeAlert, type Outcome } from '../../ui/OutcomeAlert';

type Props = {
  check: AuthorizationCheck;
  account: { email: string; label: string; picture: string | null };
  busy: boolean;
  /** The account may not use the service (the outcome says why): only Cancel is offered. */
  refused: boolean;
  /** The service's id_token_hint names someone else, who is not on this device. */
  otherAccountHinted: boolean;
  outcome: Outcome;
  onAllow: () => void;
  onCancel: () => void;
  onChangeAccount: () => void;
};

/** The consent screen (spec §2): who asks, as whom, for what; Cancel or Allow. */
export function ConsentCard({ check, account, busy, refused, otherAccountHinted, outcome, onAllow, onCancel, onChangeAccount }: Props) {
  const service = check.service.name;
  return (
    <CenteredCard width={480}>
      <Stack align="center" gap="xs" ta="center">
        <Avatar src={check.service.icon_url} alt={service} size={64} radius="md" color="blue">
          <ServerIcon size={30} />
        </Avatar>
        <Title order={1} fz={24}>
          {service}
        </Title>
        <Text c="dimmed" size="sm">
          wants to use your Home Guard account
        </Text>
      </Stack>
      <OutcomeAlert outcome={outcome} />
      <OutcomeAlert outcome={otherAccountHinted ? { kind: 'info', message: `${service} asked for a different account. Allow goes on with the one below; the button beside it switches to another.` } : null} />
      <Paper withBorder radius="md" p="sm">
        <Group justify="space-between" wrap="nowrap">
          <AccountLine label={account.label} email={account.email} picture={account.picture} />
          <ActionIcon variant="subtle" size={44} onClick={onChangeAccount} aria-label="Use another account">
            <SwitchIcon size={22} />
          </ActionIcon>
        </Group>
      </Paper>
      <div>
        <Text fw={600} mb={6}>
          {service} will be able to:
        </Text>
        <List spacing={4} size="sm">
          {check.scopes.map((scope) => (
            <List.Item key={scope}>{SCOPE_DESCRIPTIONS[scope as Scope] ?? scope}</List.Item>
          ))}
        </List>
      </div>
      <Stack gap={4}>
        <Text fw={700}>Are you sure you want to trust {service}?</Text>
        <Text size="sm" c="dimmed">
          {service} will use this information as its own privacy policy and terms say. Only allow services you know and trust; you can sign out of them at any time.
        </Text>
      </Stack>
      <Group grow>
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={onAllow} loading={busy} disabled={refused}>
          Allow
        </Button>
      </Group>
    </CenteredCard>
  );
}
