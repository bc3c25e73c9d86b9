import { describe, expect, it } from 'vitest';
import { needsRefresh, ServerClock } from './jwt-expiry';

const token = (claims: Record<string, unknown>) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;
const now = 1_800_000_000;

describe('needsRefresh', () => {
  it('refreshes missing, unreadable and expired tokens', () => {
    expect(needsRefresh(undefined)).toBe(true);
    expect(needsRefresh('not-a-jwt')).toBe(true);
    expect(needsRefresh(token({ sub: 'x' }))).toBe(true);
    expect(needsRefresh(token({ iat: now - 900, exp: now - 1 }), now * 1000)).toBe(true);
  });

  it('refreshes 10 seconds early, or a fifth of the lifetime for short tokens', () => {
    expect(needsRefresh(token({ iat: now, exp: now + 900 }), (now + 880) * 1000)).toBe(false);
    expect(needsRefresh(token({ iat: now, exp: now + 900 }), (now + 891) * 1000)).toBe(true);
    expect(needsRefresh(token({ iat: now, exp: now + 2 }), (now + 1) * 1000)).toBe(false);
    expect(needsRefresh(token({ iat: now, exp: now + 2 }), (now + 1.7) * 1000)).toBe(true);
  });

  it('refreshes from the moment the skew begins; without an iat (or with one that is no number) the skew is the full 10 seconds', () => {
    expect(needsRefresh(token({ iat: now, exp: now + 900 }), (now + 890) * 1000)).toBe(true);
    expect(needsRefresh(token({ exp: now + 900 }), (now + 889) * 1000)).toBe(false);
    expect(needsRefresh(token({ exp: now + 900 }), (now + 890) * 1000)).toBe(true);
    expect(needsRefresh(token({ iat: 'yesterday', exp: now + 900 }), (now + 890) * 1000)).toBe(true);
  });
});

describe('ServerClock', () => {
  const fresh = (iat: number) => token({ iat, exp: iat + 900 });

  it('takes the time of a device 20 minutes fast back to the server\'s, so a new token is not taken for expired', () => {
    const clock = new ServerClock();
    const deviceNow = (now + 1200) * 1000;
    expect(needsRefresh(fresh(now), clock.now(deviceNow))).toBe(true);
    expect(clock.learnFrom(fresh(now), deviceNow)).toBe(true);
    expect(clock.now(deviceNow)).toBe(now * 1000);
    expect(needsRefresh(fresh(now), clock.now(deviceNow + 60_000))).toBe(false);
    expect(needsRefresh(fresh(now), clock.now(deviceNow + 891_000))).toBe(true);
  });

  it('moves a device that runs slow forward, so it does not send a token the server takes for expired', () => {
    const clock = new ServerClock();
    clock.learnFrom(fresh(now), (now - 1200) * 1000);
    expect(needsRefresh(fresh(now), clock.now((now - 1200 + 895) * 1000))).toBe(true);
  });

  it('leaves a device within seconds of the server as it is: iat is rounded, and the token took time to arrive', () => {
    const clock = new ServerClock(60_000);
    expect(clock.learnFrom(fresh(now), now * 1000 + 1_900)).toBe(true);
    expect(clock.offsetMs).toBe(0);
    expect(clock.learnFrom(fresh(now), now * 1000 - 4_000)).toBe(false);
    expect(clock.learnFrom('not-a-jwt', now * 1000 + 600_000)).toBe(false);
    expect(clock.offsetMs).toBe(0);
    expect(clock.learnFrom(fresh(now), now * 1000 - 5_000), 'five seconds: still within the tolerance').toBe(false);
    expect(clock.offsetMs).toBe(0);
  });

  it('learns nothing from a token without an iat, and keeps what it knew', () => {
    const clock = new ServerClock(60_000);
    expect(clock.learnFrom(token({ exp: now + 900 }), now * 1000)).toBe(false);
    expect(clock.offsetMs).toBe(60_000);
  });
});
