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
