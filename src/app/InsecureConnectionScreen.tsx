import { Anchor, Code, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { loadDiscoveryLinks } from '../api/discovery';
import { LockIcon } from '../ui/icons';
import { NoticeCard } from '../ui/NoticeCard';

/**
 * Shown instead of the app on plain HTTP at any address but localhost: the browser withholds Web
 * Crypto and service workers there, so the token vault cannot open. Said plainly, with the fix,
 * rather than as the error the vault would throw. When PUBLIC_URL is an https address, it links
 * to this same page there (a service's sign-in request included).
 */
export function InsecureConnectionScreen() {
  const secureHere = useSecureAddress();
  return (
    <NoticeCard icon={<LockIcon size={30} />} colour="orange" title="Home Guard needs a secure connection">
      <Text c="dimmed">
        This page was opened over plain HTTP, at <Code>{window.location.host}</Code>. Browsers give Home Guard what it keeps your sign-ins safe with (encrypted storage on this device and its
        service worker) only over HTTPS, or at localhost on the computer it runs on.
      </Text>
      {secureHere ? (
        <Text size="sm" c="dimmed">
          Open it at its secure address: <Anchor href={secureHere.href} underline="always">{secureHere.origin}</Anchor>
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          Open Home Guard at its https:// address. If it has none yet, its administrator can put it behind a reverse proxy with a certificate (such as Caddy, Traefik or nginx) and set{' '}
          <Code>PUBLIC_URL</Code> to that address.
        </Text>
      )}
    </NoticeCard>
  );
}

/** This page at PUBLIC_URL, when that is an https address (the issuer the server announces). */
function useSecureAddress(): URL | undefined {
  const [address, setAddress] = useState<URL>();
  useEffect(() => {
    loadDiscoveryLinks()
      .then(({ issuer }) => {
        if (issuer.startsWith('https://')) setAddress(new URL(`${window.location.pathname}${window.location.search}`, issuer));
      })
      .catch(() => undefined); // the server out of reach: the page says what to do without the address
  }, []);
  return address;
}
