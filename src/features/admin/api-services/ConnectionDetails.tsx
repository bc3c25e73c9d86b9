import { Code, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { DiscoveryLinks } from '../../../../contract/oauth';
import { loadDiscoveryLinks } from '../../../api/discovery';
import { CopyButton } from '../../../ui/CopyButton';
import { Detail } from '../shared/Detail';

/**
 * What to enter in the service's OpenID Connect settings, read from Home Guard's own discovery
 * document (so it is PUBLIC_URL, whatever address this page was opened at). Most services need
 * only the discovery URL; some, like Grafana's generic OAuth, ask for each address. The sign-out
 * URL names the service: an app that sends people to a fixed sign-out address, without their ID
 * token (Portainer, Grafana, Outline), can then have them sent back.
 */
export function ConnectionDetails({ service, clientId, publicClient }: { service: string; clientId: string; publicClient: boolean }) {
  const [links, setLinks] = useState<DiscoveryLinks | null>(null);
  useEffect(() => {
    loadDiscoveryLinks().then(setLinks, (error: unknown) => console.error('Loading the discovery document failed', error));
  }, []);
  if (!links) return null;
  const addresses: Array<[string, string, string?]> = [
    ['Discovery URL', `${links.issuer}/.well-known/openid-configuration`],
    ['Issuer', links.issuer],
    ['Authorization URL', links.authorization_endpoint],
    ['Token URL', links.token_endpoint],
    ['Userinfo URL', links.userinfo_endpoint],
    ['Sign-out URL', `${links.end_session_endpoint}?${new URLSearchParams({ client_id: clientId })}`, 'To send people back afterwards, add &post_logout_redirect_uri= and one of its redirect URIs'],
  ];
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} fz="lg">
        Connecting {service}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Enter these in {service}'s OpenID Connect settings, with its client ID{publicClient ? '' : ' and secret'}. Most services need only the discovery URL.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {addresses.map(([label, value, note]) => (
          <Detail key={label} label={label}>
            <Group gap={4} wrap="nowrap" align="center">
              <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
              <CopyButton value={value} label={`Copy ${label}`} />
            </Group>
            {note && (
              <Text size="xs" c="dimmed" mt={4}>
                {note}
              </Text>
            )}
          </Detail>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
