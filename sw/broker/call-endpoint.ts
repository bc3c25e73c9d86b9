import type { Endpoint } from 'comlink';

/**
 * A page's channel as Comlink sees it, carrying calls of the broker's own verbs only. Comlink
 * itself follows any path from the exposed object: `['init', '__proto__', '__proto__']` reached
 * the worker's Object.prototype, where a setter written by page script was then handed the tokens
 * the broker parses. So a message must name one verb, with plain data as arguments (no proxies
 * back into the page); any other is dropped unanswered. `answered` is called once every call
 * admitted has been answered: the page opens a channel per call (src/broker/connect.ts), and
 * asks on it whether the worker still runs when the call takes long.
 */
export function brokerCallEndpoint(port: MessagePort, verbs: readonly string[], answered: () => void): Endpoint {
  const admitted = new Map<unknown, (event: MessageEvent) => void>();
  let unanswered = 0;
  return {
    postMessage(message: unknown, transfer?: Transferable[]) {
      port.postMessage(message, transfer ?? []);
      if (--unanswered === 0) answered();
    },
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      const onlyVerbs = (event: MessageEvent) => {
        if (!isVerbCall(event.data, verbs)) return;
        unanswered++;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      admitted.set(listener, onlyVerbs);
      port.addEventListener(type as 'message', onlyVerbs);
    },
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      const onlyVerbs = admitted.get(listener);
      if (onlyVerbs) port.removeEventListener(type as 'message', onlyVerbs);
      admitted.delete(listener);
    },
    start: () => port.start(),
  };
}

/** Comlink's wire format (4.x): an APPLY of one path step, each argument a RAW (structured-clone) value; or a RELEASE. */
function isVerbCall(data: unknown, verbs: readonly string[]): boolean {
  const message = data as { type?: unknown; path?: unknown; argumentList?: unknown } | null;
  if (message?.type === 'RELEASE') return true;
  return (
    message?.type === 'APPLY' &&
    Array.isArray(message.path) &&
    message.path.length === 1 &&
    verbs.includes(message.path[0] as string) &&
    Array.isArray(message.argumentList) &&
    message.argumentList.every((argument) => (argument as { type?: unknown } | null)?.type === 'RAW')
  );
}
