import type { Renewal } from './answers';

/**
 * A refresh that got no answer is sent again after these waits. The server may have rotated the
 * token and the answer been lost: it hands out a new pair for the old token again only within its
 * 30 s grace window, after which the old token counts as stolen and the session is revoked.
 */
const REFRESH_RETRY_DELAYS_MS = [1_000, 3_000, 6_000];
/** No try is sent later than this after the first, whatever each took to fail: well inside the grace window. */
const REFRESH_RETRY_WINDOW_MS = 20_000;
/** How long a call waits for a refresh while the device is offline: about the first try, not the retries. */
const OFFLINE_REFRESH_WAIT_MS = 1_000;

/**
 * Sends the refresh, and sends it again, with the same token, while no answer comes (a network
 * error), a few times within REFRESH_RETRY_WINDOW_MS. Any HTTP answer is final. Undefined when
 * none came. The caller holds the account's lock throughout: no other refresh or sign-out of it
 * runs in between.
 */
export async function sendRefresh(origin: string, refreshToken: string): Promise<Response | undefined> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(`${origin}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${refreshToken}` },
        body: '{}',
      });
    } catch {
      const delay = REFRESH_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || Date.now() - started + delay > REFRESH_RETRY_WINDOW_MS) return undefined;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * Offline, a call has no answer once the refresh's first try has failed: the app opened offline,
 * most often with its access token expired, waited out the retries (10 s and more) on a blank
 * page. The retries go on for the calls that follow, and keep a lost rotation's answer in reach.
 */
export function unlessOffline(running: Promise<Renewal>): Promise<Renewal> {
  if (navigator.onLine) return running;
  return Promise.race([running, new Promise<undefined>((resolve) => setTimeout(resolve, OFFLINE_REFRESH_WAIT_MS))]);
}
