// Refresh slightly before the real expiry so a token never dies on its way to the server.
const SKEW_SECONDS = 10;

/** The token's `exp` claim in seconds, or undefined when it cannot be read. */
export function expiryOf(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** True when the token is missing, unreadable or (nearly) expired. */
export function needsRefresh(token: string | undefined, nowMs = Date.now()): boolean {
  if (!token) return true;
  const exp = expiryOf(token);
  return exp === undefined || exp - SKEW_SECONDS <= nowMs / 1000;
}
