import { UAParser } from 'ua-parser-js';

export type DeviceInfo = { os: string; os_version: string; browser: string; browser_version: string };

/** The spec's device_info: base64 of JSON {os, os_version, browser, browser_version}. */
export function deviceInfoFromUserAgent(userAgent: string | undefined): string {
  const parsed = UAParser((userAgent ?? '').slice(0, 512));
  const info: DeviceInfo = {
    os: parsed.os.name ?? 'Unknown',
    os_version: parsed.os.version ?? '',
    browser: parsed.browser.name ?? 'Unknown',
    browser_version: parsed.browser.version ?? '',
  };
  return Buffer.from(JSON.stringify(info), 'utf8').toString('base64');
}
