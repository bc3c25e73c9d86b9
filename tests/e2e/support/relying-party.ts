import { createServer } from 'node:http';
import * as client from 'openid-client';
import { freePort } from '../../support/server-process';
import { E2E_URL } from './api';

/** A relying party's callback on loopback: it keeps every request it gets in `received`, and answers "Back at the service". */
export async function startCallbackServer(received: URL[]): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const server = createServer((request, response) => {
    received.push(new URL(request.url!, `http://127.0.0.1:${port}`));
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Relying party</title><h1>Back at the service</h1>');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/callback`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The service as openid-client sees it, from our discovery document. */
export const discover = (service: { clientId: string; clientSecret: string }) =>
  client.discovery(new URL(E2E_URL), service.clientId, service.clientSecret, undefined, { execute: [client.allowInsecureRequests] });

/**
 * A service that signs in in a popup, as oidc-client-ts's signinPopup does: /start opens the
 * authorization request (?auth=) in a popup; the popup's callback hands its address to the window
 * that opened it, which shows it (role status), or says it has no opener to hand it to.
 */
export async function startPopupRelyingParty(): Promise<{ callback: string; start(auth: string): string; close(): Promise<void> }> {
  const port = await freePort();
  const pages: Record<string, string> = {
    '/start': `<title>Popup service</title><button id="open">Sign in with Home Guard</button><p role="status" id="got"></p>
<script>
  document.getElementById('open').onclick = () => window.open(new URLSearchParams(location.search).get('auth'), 'signin', 'popup,width=520,height=720');
  window.addEventListener('message', (event) => { document.getElementById('got').textContent = 'Signed in: ' + event.data; });
</script>`,
    '/popup-callback': `<title>Popup callback</title><h1>Back at the service</h1>
<script>
  if (window.opener) { window.opener.postMessage(location.search, '*'); window.close(); }
  else document.querySelector('h1').textContent = 'No window to hand the answer to';
</script>`,
  };
  const server = createServer((request, response) => {
    const page = pages[new URL(request.url!, 'http://rp').pathname];
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html' }).end(page ?? 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${port}`;
  return {
    callback: `${origin}/popup-callback`,
    start: (auth) => `${origin}/start?${new URLSearchParams({ auth })}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
