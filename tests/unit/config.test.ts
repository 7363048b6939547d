import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';

describe('loadConfig', () => {
  it('defaults to PGlite under ./data with the demo city, port 8080 and the spec’s lifetimes', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, databaseUrl: undefined, seedDemo: true, tokenTtlSeconds: 1800, passwordMaxAgeDays: 90, sessionMaxAgeSeconds: 43_200 });
    expect(c.dataDir).toBe(path.resolve('data'));
  });

  it('turns the demo seed off by default on PostgreSQL, and on when asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('bounds slow clients and login floods by default, and lets each limit be set', () => {
    const c = loadConfig({});
    expect(c.connections).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_000, maxConnectionsPerIp: 100 });
    expect(c.login).toMatchObject({ perIpPerMinute: 60, perAccountPerMinute: 30, hashConcurrency: 1 });
    // The head cannot be allowed longer than the whole request.
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '2000' }).connections.headersTimeoutMs).toBe(2_000);
    // Behind a proxy every connection has the proxy's address: no per-address cap unless asked.
    expect(loadConfig({ TRUST_PROXY: 'true' }).connections.maxConnectionsPerIp).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_IP: '500' }).connections.maxConnectionsPerIp).toBe(500);
    expect(loadConfig({ LOGIN_RATE_PER_IP: '0' }).login.perIpPerMinute).toBe(0);
    // Whom to believe about X-Forwarded-For: nobody, a hop count, the proxies' addresses, or all.
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: 'on' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).connections.maxConnectionsPerIp).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('gives pending connections and event streams their own shares of the connections, leaving room for calls', () => {
    const c = loadConfig({});
    expect(c.connections).toMatchObject({ maxPendingConnections: 250, minRequestBodyRate: 240, requestBodyGraceMs: 5_000 });
    expect(c.exports).toMatchObject({ streamsPerSession: 3, streamsPerAccount: 4, maxStreams: 500 });
    // The shares follow MAX_CONNECTIONS unless set.
    const small = loadConfig({ MAX_CONNECTIONS: '100' });
    expect([small.connections.maxPendingConnections, small.exports.maxStreams]).toEqual([25, 50]);
    expect(loadConfig({ MAX_EVENT_STREAMS: '20', EVENT_STREAMS_PER_SESSION: '2', MIN_REQUEST_BODY_RATE: '0' })).toMatchObject({ exports: { maxStreams: 20, streamsPerSession: 2 }, connections: { minRequestBodyRate: 0 } });
    // Shares that leave nothing for ordinary calls are a mistake, said at start.
    expect(() => loadConfig({ MAX_CONNECTIONS: '100', MAX_EVENT_STREAMS: '80', MAX_PENDING_CONNECTIONS: '20' })).toThrow(/MAX_EVENT_STREAMS/);
  });

  it('refuses values it cannot read instead of guessing', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
    expect(() => loadConfig({ TOKEN_TTL_SECONDS: '-5' })).toThrow(/TOKEN_TTL_SECONDS/);
  });

  it('takes map tiles only as an https template with {z}, {x} and {y}, and a job period', () => {
    expect(loadConfig({}).mapTileUrl).toBeNull();
    expect(loadConfig({ MAP_TILE_URL: 'https://tiles.example.cn/{z}/{x}/{y}.png' }).mapTileUrl).toBe('https://tiles.example.cn/{z}/{x}/{y}.png');
    expect(() => loadConfig({ MAP_TILE_URL: 'http://tiles.example.cn/{z}/{x}/{y}.png' })).toThrow(/MAP_TILE_URL/);
    expect(() => loadConfig({ MAP_TILE_URL: 'https://tiles.example.cn/tile.png' })).toThrow(/MAP_TILE_URL/);
    // The CSP names the tile host: a {s} subdomain is `*.` of a fixed name, a templated name is refused.
    expect(loadConfig({ MAP_TILE_URL: 'https://webrd0{s}.is.autonavi.com/appmaptile?x={x}&y={y}&z={z}' }).mapTileUrl).toContain('{s}');
    expect(() => loadConfig({ MAP_TILE_URL: 'https://tiles.{s}.cn/{z}/{x}/{y}.png' })).toThrow(/MAP_TILE_URL/);
    expect(() => loadConfig({ MAP_TILE_URL: 'https://user@tiles.example.cn/{z}/{x}/{y}.png' })).toThrow(/MAP_TILE_URL/);
    expect(loadConfig({}).jobIntervalMs).toBeNull();
    expect(loadConfig({ JOB_INTERVAL_MS: '1000' }).jobIntervalMs).toBe(1000);
    expect(() => loadConfig({ JOB_INTERVAL_MS: 'often' })).toThrow(/JOB_INTERVAL_MS/);
  });

  it('reads the refund amount that asks for a password in yuan, exactly', () => {
    expect(loadConfig({}).refundPasswordAboveFen).toBe(20_000);
    expect(loadConfig({ REFUND_PASSWORD_ABOVE: '500.5' }).refundPasswordAboveFen).toBe(50_050);
    expect(loadConfig({ REFUND_PASSWORD_ABOVE: '0' }).refundPasswordAboveFen).toBe(0);
    expect(() => loadConfig({ REFUND_PASSWORD_ABOVE: '200.001' })).toThrow(/REFUND_PASSWORD_ABOVE/);
    expect(() => loadConfig({ REFUND_PASSWORD_ABOVE: '-1' })).toThrow(/REFUND_PASSWORD_ABOVE/);
  });
});
