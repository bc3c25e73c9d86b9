/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { BROKER_CONNECT_MESSAGE, type BrokerApi } from '../contract/broker';
import { Broker, isBrokeredRequest } from './broker/broker';
import { brokerCallEndpoint } from './broker/call-endpoint';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

const broker = new Broker(self.location.origin);

// Only the broker's verbs cross to the page (brokerCallEndpoint): none of them returns a token.
const api: BrokerApi = {
  init: (traits) => broker.init(traits),
  snapshot: () => broker.snapshot(),
  signIn: (credentials) => broker.signIn(credentials),
  select: (accountId) => broker.select(accountId),
  signOut: (accountId) => broker.signOut(accountId),
  remove: (accountId) => broker.remove(accountId),
  updateAccount: (accountId, changes) => broker.updateAccount(accountId, changes),
};
const BROKER_VERBS = Object.keys(api);

// Bearer tokens for first-party API calls. Registered before the precache routes so it wins.
// Never on a navigation or a no-cors request: the app makes none to the API, and one may come
// from another site's link or form, which must not be sent with the person's token (cross-site
// request forgery). isBrokeredRequest says which.
self.addEventListener('fetch', (event) => {
  if (!isBrokeredRequest(event.request, self.location.origin)) return;
  event.respondWith(broker.fetchWithToken(event.request));
});

// The app shell works offline; every page path is the single-page app.
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/avatars\//, /^\/\.well-known\//] }));
// Built files left out of the precache (the admin area's) are kept once loaded: their names
// carry a content hash, so a cached copy is never stale. Only what is code or style: a page
// answered in place of a file is no file to keep. Each version starts the cache afresh (below),
// so the files of old versions do not pile up.
const LOADED_ASSETS = 'home-guard-loaded-assets';
const isCodeOrStyle = (response: Response) => /^(text\/javascript|application\/javascript|text\/css)\b/.test(response.headers.get('content-type') ?? '');
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/assets/'),
  async ({ request }) => {
    const cache = await caches.open(LOADED_ASSETS);
    const cached = await cache.match(request);
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok && isCodeOrStyle(response)) await cache.put(request, response.clone());
    return response;
  },
);

// A sign-out made offline ends its session on the server once the connection is back (when the
// worker is running then; else at the next page load or API call).
self.addEventListener('online', () => void broker.flushLogouts());

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | undefined;
  if (data?.type === BROKER_CONNECT_MESSAGE && event.ports[0]) {
    // A port's messages do not keep a worker running: idle for 30 s, Chrome stopped it mid-call (a
    // sign-in whose answer was then lost). This event does, until the channel's call is answered.
    const port = event.ports[0];
    event.waitUntil(new Promise<void>((answered) => Comlink.expose(api, brokerCallEndpoint(port, BROKER_VERBS, answered))));
  }
  // A new version waits until the person accepts the "reload to update" prompt.
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('activate', (event) => event.waitUntil(Promise.all([caches.delete(LOADED_ASSETS), self.clients.claim()])));
