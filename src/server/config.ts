import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Set: PostgreSQL. Unset: embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  seedDemo: boolean;
  tokenTtlSeconds: number;
  passwordMaxAgeDays: number;
  /** Absolute session lifetime, whatever the activity. */
  sessionMaxAgeSeconds: number;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Folder of the built console; served when it exists. */
  staticDir: string;
  /** Demo seed value: the same value gives the same city. */
  seed: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
}

const num = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
};

const bool = (name: string, raw: string | undefined, fallback: boolean): boolean => {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    // Loopback unless asked: the demo accounts' password is published in the README.
    host: env.HOST || '127.0.0.1',
    port: num('PORT', env.PORT, 8080),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    // Demo accounts with a published password must never appear on a real database by accident.
    seedDemo: bool('SEED_DEMO', env.SEED_DEMO, databaseUrl === undefined),
    tokenTtlSeconds: num('TOKEN_TTL_SECONDS', env.TOKEN_TTL_SECONDS, 1800),
    passwordMaxAgeDays: num('PASSWORD_MAX_AGE_DAYS', env.PASSWORD_MAX_AGE_DAYS, 90),
    sessionMaxAgeSeconds: num('SESSION_MAX_AGE_SECONDS', env.SESSION_MAX_AGE_SECONDS, 12 * 3600),
    bodyLimit: num('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES, 256 * 1024),
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    seed: num('SEED', env.SEED, 20261122),
    trustProxy: bool('TRUST_PROXY', env.TRUST_PROXY, false),
  };
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
