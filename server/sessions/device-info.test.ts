import { expect, it } from 'vitest';
import { describeDevice, deviceInfoFromUserAgent, rememberedUserAgents, sameDevice, type DeviceInfo } from './device-info';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const decode = (encoded: string) => JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as DeviceInfo;

it('describes the browser and system of a user agent, the same each time it is asked', () => {
  expect(decode(deviceInfoFromUserAgent(FIREFOX_LINUX))).toEqual({ os: 'Linux', os_version: '', browser: 'Firefox', browser_version: '131.0' });
  expect(decode(deviceInfoFromUserAgent(SAFARI_IPHONE))).toMatchObject({ os: 'iOS', os_version: '17.5', browser: 'Mobile Safari' });
  expect(decode(deviceInfoFromUserAgent(FIREFOX_LINUX)).browser).toBe('Firefox');
  expect(decode(deviceInfoFromUserAgent(undefined))).toEqual({ os: 'Unknown', os_version: '', browser: 'Unknown', browser_version: '' });
});

it('remembers a bounded number of user agents', () => {
  for (let i = 0; i < 1000; i++) deviceInfoFromUserAgent(`Mozilla/5.0 (X11; Linux x86_64; rv:${i}.0) Gecko/20100101 Firefox/${i}.0`);
  expect(rememberedUserAgents()).toBe(256);
  expect(decode(deviceInfoFromUserAgent(SAFARI_IPHONE)).os).toBe('iOS');
  expect(decode(deviceInfoFromUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:999.0) Gecko/20100101 Firefox/999.0')).browser_version).toBe('999.0');
});

it('tells devices apart by browser and system, not by their versions', () => {
  const firefoxLater = FIREFOX_LINUX.replaceAll('131.0', '133.0');
  expect(sameDevice(deviceInfoFromUserAgent(FIREFOX_LINUX), deviceInfoFromUserAgent(firefoxLater))).toBe(true);
  expect(sameDevice(deviceInfoFromUserAgent(FIREFOX_LINUX), deviceInfoFromUserAgent(FIREFOX_LINUX))).toBe(true);
  expect(sameDevice(deviceInfoFromUserAgent(FIREFOX_LINUX), deviceInfoFromUserAgent(SAFARI_IPHONE))).toBe(false);
  // Another browser or another system is another device, the other one the same or not.
  expect(sameDevice(deviceInfoFromUserAgent(FIREFOX_LINUX), deviceInfoFromUserAgent(FIREFOX_WINDOWS))).toBe(false);
  expect(sameDevice(deviceInfoFromUserAgent(FIREFOX_LINUX), deviceInfoFromUserAgent(CHROME_LINUX))).toBe(false);
  expect(sameDevice(deviceInfoFromUserAgent(FIREFOX_LINUX), 'not base64 json')).toBe(false);
  expect(describeDevice(deviceInfoFromUserAgent(FIREFOX_LINUX))).toBe('Firefox on Linux');
  expect(describeDevice(deviceInfoFromUserAgent(undefined))).toBe('an unknown browser on an unknown system');
});
