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

/** True when the token is missing, unreadable or (nearly) expired at `nowMs`, the server's time. */
export function needsRefresh(token: string | undefined, nowMs = Date.now()): boolean {
  const lifetime = token ? lifetimeOf(token) : undefined;
  if (!lifetime) return true;
  const skew = lifetime.iat === undefined ? MAX_SKEW_SECONDS : Math.min(MAX_SKEW_SECONDS, (lifetime.exp - lifetime.iat) / 5);
  return lifetime.exp - skew <= nowMs / 1000;
}

/** Below this, a token's `iat` and the device's time differ by the rounding of `iat` and the trip, not by a wrong clock. */
const CLOCK_TOLERANCE_MS = 5_000;

/**
 * The server's time as this device can tell it: the device's clock, corrected by how far it was
 * from the `iat` of a token fresh from the server. A device running 15 minutes fast would
 * otherwise take every new token for expired and refresh before each call.
 */
export class ServerClock {
  constructor(public offsetMs = 0) {}

  /** Learns the offset from a token just issued; answers whether it changed. */
  learnFrom(freshToken: string, deviceNow = Date.now()): boolean {
    const iat = lifetimeOf(freshToken)?.iat;
    if (iat === undefined) return false;
    const offset = iat * 1000 - deviceNow;
    const learned = Math.abs(offset) > CLOCK_TOLERANCE_MS ? offset : 0;
    const changed = learned !== this.offsetMs;
    this.offsetMs = learned;
    return changed;
  }

  now(deviceNow = Date.now()): number {
    return deviceNow + this.offsetMs;
  }
}
