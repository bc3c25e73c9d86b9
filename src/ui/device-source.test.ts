import { expect, it } from 'vitest';
import { deviceSource } from './device-source';

const encoded = (info: Record<string, string>) => btoa(JSON.stringify(info));

it("decodes a session's device, leaving out what the User-Agent did not say", () => {
  expect(deviceSource(encoded({ os: 'Linux', os_version: '', browser: 'Chrome', browser_version: '120.0' }))).toBe('Linux, Chrome 120.0');
  expect(deviceSource(encoded({ os: 'Unknown', os_version: '', browser: 'curl', browser_version: '8.5' }))).toBe('curl 8.5');
  expect(deviceSource(encoded({ os: 'Unknown', os_version: '', browser: 'Unknown', browser_version: '' }))).toBe('Unknown device');
  expect(deviceSource('not base64 json')).toBe('Unknown device');
});
