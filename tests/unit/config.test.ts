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

  it('refuses values it cannot read instead of guessing', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
    expect(() => loadConfig({ TOKEN_TTL_SECONDS: '-5' })).toThrow(/TOKEN_TTL_SECONDS/);
  });
});
