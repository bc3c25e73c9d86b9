import net from 'node:net';

/**
 * A TCP relay in front of PostgreSQL on `port` (any free one by default): a real network path the
 * test can cut (the port then refuses, and open connections drop) and mend, make drop each
 * connection as soon as the app sends on it (a query, or a new connection's greeting), or turn
 * into a tarpit that takes connections and never answers, or fall silent on the connections open.
 */
export async function startRelay(target: URL, port = 0) {
  const open = new Set<net.Socket>();
  let mode: 'relay' | 'break' | 'tarpit' | 'silent' = 'relay';
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (mode === 'tarpit') return;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    // Silent, nothing gets through either way, and the connections stay open: a paused server.
    upstream.on('data', (chunk) => mode !== 'silent' && client.write(chunk));
    client.on('data', (chunk) => (mode === 'break' ? client.destroy() : mode !== 'silent' && upstream.write(chunk)));
  });
  const listen = (at: number) => new Promise<void>((resolve) => server.listen(at, '127.0.0.1', resolve));
  await listen(port);
  const bound = (server.address() as net.AddressInfo).port;
  const cut = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of open) socket.destroy();
    await closed;
    // The app's side of each dropped connection hears of it on loopback at once; this lets it.
    await new Promise((resolve) => setTimeout(resolve, 100));
  };
  return {
    port: bound,
    urlThrough: (url: string) => Object.assign(new URL(url), { hostname: '127.0.0.1', port: String(bound) }).toString(),
    cut,
    mend: async () => {
      if (server.listening) await cut();
      mode = 'relay';
      await listen(bound);
    },
    breakOnNextSend: () => {
      mode = 'break';
    },
    /** Stops everything getting through, on open connections too, as a paused server (docker pause) does. */
    silence: () => {
      mode = 'silent';
    },
    /** Lets everything through again, without closing what is open: what fell silent stays lost. */
    resume: () => {
      mode = 'relay';
    },
    makeTarpit: async () => {
      await cut();
      mode = 'tarpit';
      await listen(bound);
    },
    close: async () => {
      if (server.listening) await cut();
    },
  };
}
