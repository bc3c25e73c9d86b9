import { useSyncExternalStore } from 'react';
import { Workbox } from 'workbox-window';

export type UpdateListener = (applyUpdate: () => void) => void;

/**
 * Whether the service worker keeps this tab working offline. 'starting': it is still being
 * installed and will take the tab over itself; 'reload': it is ready, but this tab was loaded
 * without it (a hard reload, or its install failed); 'unavailable': the browser will not run it.
 */
export type OfflineSupport = 'active' | 'starting' | 'reload' | 'unavailable';

type Registration = Pick<ServiceWorkerRegistration, 'installing' | 'waiting' | 'active'>;

export function offlineSupportOf(env: { api: boolean; controlled: boolean; registration: 'pending' | 'failed' | Registration }): OfflineSupport {
  if (!env.api) return 'unavailable';
  if (env.controlled) return 'active';
  if (env.registration === 'failed') return 'unavailable';
  if (env.registration === 'pending') return 'starting';
  if (env.registration.active) return 'reload';
  return env.registration.installing || env.registration.waiting ? 'starting' : 'reload';
}

let registration: 'pending' | 'failed' | ServiceWorkerRegistration = 'pending';
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

function currentOfflineSupport(): OfflineSupport {
  const api = 'serviceWorker' in navigator;
  return offlineSupportOf({ api, controlled: api && navigator.serviceWorker.controller !== null, registration });
}

function subscribeToOfflineSupport(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOfflineSupport(): OfflineSupport {
  return useSyncExternalStore(subscribeToOfflineSupport, currentOfflineSupport);
}

/**
 * Registers the service worker. When a new version is installed and waiting, `onUpdate` gets a
 * function that activates it and reloads the page once it controls it.
 */
export function registerServiceWorker(onUpdate: UpdateListener): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  navigator.serviceWorker.addEventListener('controllerchange', changed);
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    onUpdate(() => {
      // Another tab may have applied it already: nothing waits any more, and this tab's
      // controller changed before anyone listened. It still runs the old code, so it reloads.
      if (registration === 'pending' || registration === 'failed' || !registration.waiting) {
        window.location.reload();
        return;
      }
      navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
      wb.messageSkipWaiting();
    });
  });
  wb.register().then(
    (registered) => {
      if (!registered) return;
      registration = registered;
      registered.addEventListener('updatefound', () => registered.installing?.addEventListener('statechange', changed));
      registered.installing?.addEventListener('statechange', changed);
      changed();
    },
    (error: unknown) => {
      console.warn('Service worker registration failed', error);
      registration = 'failed';
      changed();
    },
  );
}
