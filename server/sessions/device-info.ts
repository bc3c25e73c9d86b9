import { UAParser } from 'ua-parser-js';

export type DeviceInfo = { os: string; os_version: string; browser: string; browser_version: string };

// A household signs in from a handful of browsers: parsing each user agent once saves the
// regular-expression sweep (a few percent of a sign-in's event-loop time). Bounded, oldest first.
const MAX_REMEMBERED = 256;
const byUserAgent = new Map<string, string>();

/** The spec's device_info: base64 of JSON {os, os_version, browser, browser_version}. */
export function deviceInfoFromUserAgent(userAgent: string | undefined): string {
  const key = (userAgent ?? '').slice(0, 512);
  const remembered = byUserAgent.get(key);
  if (remembered !== undefined) return remembered;
  const parsed = UAParser(key);
  const info: DeviceInfo = {
    os: parsed.os.name ?? 'Unknown',
    os_version: parsed.os.version ?? '',
    browser: parsed.browser.name ?? 'Unknown',
    browser_version: parsed.browser.version ?? '',
  };
  const encoded = Buffer.from(JSON.stringify(info), 'utf8').toString('base64');
  if (byUserAgent.size >= MAX_REMEMBERED) byUserAgent.delete(byUserAgent.keys().next().value!);
  byUserAgent.set(key, encoded);
  return encoded;
}

/** How many parsed user agents are kept (for tests). */
export const rememberedUserAgents = () => byUserAgent.size;

const decoded = (encoded: string): Partial<DeviceInfo> => {
  try {
    return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Partial<DeviceInfo>;
  } catch {
    return {};
  }
};

/** Whether two device_info values name the same browser on the same system; updates of either do not count. */
export function sameDevice(a: string, b: string): boolean {
  if (a === b) return true;
  const [left, right] = [decoded(a), decoded(b)];
  return left.browser === right.browser && left.os === right.os;
}

/** "Firefox on Linux", for a sentence. */
export function describeDevice(encoded: string): string {
  const { browser, os } = decoded(encoded);
  return `${!browser || browser === 'Unknown' ? 'an unknown browser' : browser} on ${!os || os === 'Unknown' ? 'an unknown system' : os}`;
}
