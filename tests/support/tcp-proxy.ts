import net from 'node:net';

/**
 * A loopback TCP relay a test can break: `cut()` drops every relayed connection at once (what a
 * database restart does to its clients) and `down(ms)` also refuses new ones for a while (the
 * restart's downtime). It stands in for the network, not for any part of the product.
 */
export interface TcpProxy {
  port: number;
  cut(): void;
  down(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  let refusing = false;
  const server = net.createServer((client) => {
    track(client);
    if (refusing) return client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const cut = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    port,
    cut,
    async down(ms) {
      refusing = true;
      cut();
      await new Promise((r) => setTimeout(r, ms));
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
