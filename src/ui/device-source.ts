/**
 * A session's source: its device_info (base64 JSON) as "os os_version, browser browser_version".
 * The server writes 'Unknown' for what the User-Agent did not say; those parts are left out.
 */
export function deviceSource(deviceInfo: string): string {
  try {
    const info = JSON.parse(atob(deviceInfo)) as Record<string, string | undefined>;
    const known = (name?: string) => (name && name !== 'Unknown' ? name : undefined);
    const part = (name?: string, version?: string) => (known(name) ? [name, version].filter(Boolean).join(' ') : '');
    return [part(info.os, info.os_version), part(info.browser, info.browser_version)].filter(Boolean).join(', ') || 'Unknown device';
  } catch {
    return 'Unknown device';
  }
}
