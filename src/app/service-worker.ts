import { Workbox } from 'workbox-window';

export type UpdateListener = (applyUpdate: () => void) => void;

/**
 * Registers the service worker. When a new version is installed and waiting, `onUpdate` gets a
 * function that activates it and reloads the page once it controls it.
 */
export function registerServiceWorker(onUpdate: UpdateListener): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    onUpdate(() => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  void wb.register().catch((error: unknown) => console.warn('Service worker registration failed', error));
}
