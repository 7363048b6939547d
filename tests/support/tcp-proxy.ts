import net from 'node:net';

/**
 * A loopback TCP relay a test can break: `cut()` drops every relayed connection at once (what a
 * database restart does to its clients), `down(ms)` also refuses new ones for a while (the
 * restart's downtime), and `stall(ms)` stops relaying without closing anything (a network that
 * drops packets: nothing is reset, answers just do not come). It stands in for the network, not for
 * any part of the product.
 */
export interface TcpProxy {
  port: number;
  cut(): void;
  down(ms: number): Promise<void>;
  stall(ms: number): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let refusing = false;
  let stalled = false;
  const relay = (p: Pair) => {
    p.client.pipe(p.upstream);
    p.upstream.pipe(p.client);
  };
  const hold = (p: Pair) => {
    p.client.unpipe(p.upstream);
    p.upstream.unpipe(p.client);
    p.client.pause();
    p.upstream.pause();
  };
  const server = net.createServer((client) => {
    client.on('error', () => client.destroy());
    if (refusing) return client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    upstream.on('error', () => upstream.destroy());
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('close', drop);
    upstream.on('close', drop);
    if (stalled) hold(pair);
    else relay(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const cut = () => {
    for (const p of pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
  };
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    port,
    cut,
    async down(ms) {
      refusing = true;
      cut();
      await wait(ms);
      refusing = false;
    },
    async stall(ms) {
      stalled = true;
      pairs.forEach(hold);
      await wait(ms);
      stalled = false;
      pairs.forEach(relay);
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
