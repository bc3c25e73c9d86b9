import * as Comlink from 'comlink';
import { BROKER_CHANNEL, BROKER_CONNECT_MESSAGE, type BrokerApi, type BrokerEvent } from '../../contract/broker';

/** How the page reaches the broker, and how it sends first-party API requests. */
export type BrokerConnection = {
  /** 'worker': the service worker brokers; 'page': no worker controls this page, the broker runs here. */
  mode: 'worker' | 'page';
  api: BrokerApi;
  /** fetch for `/api/` calls: the worker adds the bearer itself; in the page the broker does. */
  fetch(input: string, init?: RequestInit): Promise<Response>;
  /** Broker events from every tab (and from this page's own broker). */
  subscribe(listener: (event: BrokerEvent) => void): () => void;
};

// A worker that stopped (replaced, or killed) leaves a Comlink port hanging without an answer or
// an error. After this long without an answer the worker is asked whether it still runs; one that
// answers that is at work (a sign-in waiting on a busy server), and the call is left to finish.
const CALL_TIMEOUT_MS = 8_000;
const PING_TIMEOUT_MS = 2_000;
// How long to wait for the worker to claim a freshly loaded page before running the broker here.
const CLAIM_WAIT_MS = 3_000;

function subscribeToChannel(listener: (event: BrokerEvent) => void): () => void {
  const channel = new BroadcastChannel(BROKER_CHANNEL);
  channel.onmessage = (message: MessageEvent<BrokerEvent>) => listener(message.data);
  return () => channel.close();
}

async function controllingWorker(): Promise<ServiceWorker | null> {
  if (!('serviceWorker' in navigator)) return null;
  if (navigator.serviceWorker.controller) return navigator.serviceWorker.controller;
  // First visit: the worker claims the page once it activates. A hard reload is never controlled.
  const claimed = new Promise<ServiceWorker | null>((resolve) => {
    navigator.serviceWorker.addEventListener('controllerchange', () => resolve(navigator.serviceWorker.controller), { once: true });
    setTimeout(() => resolve(navigator.serviceWorker.controller), CLAIM_WAIT_MS);
  });
  return claimed;
}

const after = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms));

/** The worker behind this page stopped answering (it was stopped, or replaced mid-call). */
export class BrokerGone extends Error {
  constructor() {
    super("This page lost touch with Home Guard's background worker. Reload the page.");
    this.name = 'BrokerGone';
  }
}

/** The call's answer, waited for as long as the worker behind it answers `ping`; BrokerGone once it does not. */
async function answerWhileAlive<T>(pending: Promise<T>, ping: () => Promise<unknown>): Promise<T> {
  const answer = pending.then((value) => ({ value }));
  answer.catch(() => undefined); // a late failure, once the worker is given up on, is no one's to handle
  for (;;) {
    const outcome = await Promise.race([answer, after(CALL_TIMEOUT_MS)]);
    if (outcome !== 'late') return outcome.value;
    const alive = await Promise.race([ping().then(() => true, () => true), after(PING_TIMEOUT_MS)]);
    if (alive !== true) throw new BrokerGone();
  }
}

/**
 * The worker's broker, over a channel of its own for each call. Posting the channel wakes a
 * worker the browser stopped while idle (after 30 s), and the worker keeps running until it has
 * answered; a channel kept from call to call reached a stopped worker's dead port, and every
 * call after an idle half minute hung until the timeouts above ran out (10 s).
 */
function workerApi(): BrokerApi {
  const open = () => {
    const worker = navigator.serviceWorker.controller;
    if (!worker) throw new Error('No database connection available.');
    const { port1, port2 } = new MessageChannel();
    worker.postMessage({ type: BROKER_CONNECT_MESSAGE }, [port2]);
    return { remote: Comlink.wrap<BrokerApi>(port1), close: () => port1.close() };
  };
  const call = async <K extends keyof BrokerApi>(verb: K, args: Parameters<BrokerApi[K]>): Promise<Awaited<ReturnType<BrokerApi[K]>>> => {
    for (let attempt = 0; ; attempt++) {
      const { remote, close } = open();
      const method = remote[verb] as unknown as (...a: unknown[]) => Promise<Awaited<ReturnType<BrokerApi[K]>>>;
      try {
        return await answerWhileAlive(method(...args), () => remote.snapshot());
      } catch (error) {
        // Once more, to the worker that runs now: every verb but signIn is safe to send again. A
        // sign-in may have reached the server: sent again, its two-step code was refused as used.
        if (!(error instanceof BrokerGone) || attempt > 0 || verb === 'signIn') throw error;
      } finally {
        close();
      }
    }
  };
  return {
    init: (...args) => call('init', args),
    snapshot: (...args) => call('snapshot', args),
    signIn: (...args) => call('signIn', args),
    select: (...args) => call('select', args),
    signOut: (...args) => call('signOut', args),
    remove: (...args) => call('remove', args),
    updateAccount: (...args) => call('updateAccount', args),
  };
}

/** Connects to the worker's broker, or loads the same broker module in the page when no worker controls it. */
export async function connectBroker(): Promise<BrokerConnection> {
  const worker = await controllingWorker();
  if (worker) {
    // No worker any more (the site's data cleared, which unregisters it): a call would go out
    // without a bearer, and its "Authentication required" left the page looking signed in.
    const fetchThroughWorker = (input: string, init?: RequestInit) => (navigator.serviceWorker.controller ? fetch(input, init) : Promise.reject(new BrokerGone()));
    return { mode: 'worker', api: workerApi(), fetch: fetchThroughWorker, subscribe: subscribeToChannel };
  }
  const { Broker, isBrokeredRequest } = await import('../../sw/broker/broker');
  const broker = new Broker(location.origin);
  return {
    mode: 'page',
    api: broker,
    // The bearer goes only where the worker would send it.
    fetch: (input, init) => {
      const request = new Request(input, init);
      return isBrokeredRequest(request, location.origin) ? broker.fetchWithToken(request) : fetch(request);
    },
    subscribe: (listener) => {
      broker.listeners.add(listener);
      const unsubscribe = subscribeToChannel(listener);
      return () => {
        broker.listeners.delete(listener);
        unsubscribe();
      };
    },
  };
}
