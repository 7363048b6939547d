import { createClient } from './lib';
import { startServer } from './flood.bench';

/**
 * Does a failed login's answer time tell a known name from an unknown one? Pairs of failed logins
 * (a demo account, then a name that does not exist), each from a fresh address so no lockout
 * changes the path, on a server in its own process. Reported: the median of each and Welch's t of
 * the difference (|t| above ~3 means a timing attacker can tell them apart with enough tries).
 */
export interface TimingRow {
  setup: string;
  pairs: number;
  knownMedian: number;
  unknownMedian: number;
  t: number;
}

const KNOWN = ['viewer', 'agent', 'manager', 'expired'];

function welch(a: number[], b: number[]): number {
  const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
  const variance = (x: number[], m: number) => x.reduce((s, v) => s + (v - m) ** 2, 0) / (x.length - 1);
  const ma = mean(a);
  const mb = mean(b);
  return (ma - mb) / Math.sqrt(variance(a, ma) / a.length + variance(b, mb) / b.length);
}

const median = (x: number[]) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)] ?? Number.NaN;

async function runSetup(setup: string, env: Record<string, string>, pairs: number): Promise<TimingRow> {
  const server = await startServer({ TRUST_PROXY: 'true', LOGIN_RATE_PER_IP: '0', LOGIN_RATE_PER_ACCOUNT: '0', ...env });
  const client = createClient(server.url, 1);
  const known: number[] = [];
  const unknown: number[] = [];
  try {
    const attempt = async (username: string, i: number) => {
      const t0 = performance.now();
      const res = await client.request('POST', '/busline/api/authenticate', {
        json: { username, password: 'not-the-password' },
        headers: { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      });
      if (res.status !== 200) throw new Error(`timing: HTTP ${res.status} ${res.body.slice(0, 100)}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 10; i++) await attempt(`warm-${i}`, 60_000 + i);
    for (let i = 0; i < pairs; i++) {
      known.push(await attempt(KNOWN[i % KNOWN.length] ?? 'viewer', 2 * i));
      unknown.push(await attempt(`nobody-${i}`, 2 * i + 1));
    }
  } finally {
    client.close();
    await server.stop();
  }
  return { setup, pairs, knownMedian: median(known), unknownMedian: median(unknown), t: welch(known, unknown) };
}

export async function benchTiming(progress: (msg: string) => void): Promise<TimingRow[]> {
  progress('bench: failed-login timing, same work only (no floor)...');
  const noFloor = await runSetup('same work, no floor (LOGIN_FAILURE_FLOOR_MS=0)', { LOGIN_FAILURE_FLOOR_MS: '0' }, 200);
  progress('bench: failed-login timing, with the default floor...');
  const floor = await runSetup('same work and the 300 ms floor (default)', {}, 100);
  return [noFloor, floor];
}

export function timingTable(rows: TimingRow[]): string[] {
  return [
    '| failed logins, known vs unknown name | pairs | known median ms | unknown median ms | Welch t |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.setup} | ${r.pairs} | ${r.knownMedian.toFixed(1)} | ${r.unknownMedian.toFixed(1)} | ${r.t.toFixed(1)} |`),
  ];
}
