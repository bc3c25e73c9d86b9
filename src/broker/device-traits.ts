import type { DeviceTraits } from '../../contract/broker';

/** The browser and screen traits the device id is hashed from (spec §9). */
export function deviceTraits(): DeviceTraits {
  return {
    userAgent: navigator.userAgent,
    language: navigator.language,
    platform: navigator.platform,
    screen: `${screen.width}x${screen.height}x${screen.colorDepth}@${window.devicePixelRatio}`,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}
