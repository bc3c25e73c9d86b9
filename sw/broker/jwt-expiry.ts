// Refresh slightly before the real expiry so a token never dies on its way to the server:
// 10 seconds early, or a fifth of the lifetime for very short-lived tokens.
const MAX_SKEW_SECONDS = 10;

/** The token's `exp` and `iat` claims in seconds, or undefined when they cannot be read. */
export function lifetimeOf(token: string): { exp: number; iat: number | undefined } | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; iat?: unknown };
    if (typeof claims.exp !== 'number') return undefined;
    return { exp: claims.exp, iat: typeof claims.iat === 'number' ? claims.iat : undefined };
  } catch {
    return undefined;
  }
}

/** True when the token is missing, unreadable or (nearly) expired. */
export function needsRefresh(token: string | undefined, nowMs = Date.now()): boolean {
  const lifetime = token ? lifetimeOf(token) : undefined;
  if (!lifetime) return true;
  const skew = lifetime.iat === undefined ? MAX_SKEW_SECONDS : Math.min(MAX_SKEW_SECONDS, (lifetime.exp - lifetime.iat) / 5);
  return lifetime.exp - skew <= nowMs / 1000;
}
