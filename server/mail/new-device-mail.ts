import type { Notice } from './security-notice';

/** Told to the person when their account signs in from a browser and system it has not used lately (ASVS 2.2.3). */
export function newDeviceNotice(device: string, ip: string | undefined, at: number): Notice {
  const when = `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return {
    subject: 'New sign-in to your Home Guard account',
    what: `Your Home Guard account was signed in to from ${device}${ip ? ` at address ${ip}` : ''}, on ${when}. It had not signed in from that browser and system lately.`,
    ifNotYou: 'If this was not you, someone else has your password: change it under Personal Info, and sign that device out there.',
  };
}
