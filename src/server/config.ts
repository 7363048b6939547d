import { tileSourceOf } from './lib/csp-sources';
import { demoPiiKey, parsePiiKey } from './lib/pii';
import path from 'node:path';
import { yuanToFen } from '../shared/domain/money';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Set: PostgreSQL. Unset: embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** PostgreSQL: a query unanswered this long counts as a lost connection (503); 0 = wait for ever. */
  databaseQueryTimeoutMs: number;
  seedDemo: boolean;
  tokenTtlSeconds: number;
  passwordMaxAgeDays: number;
  /**
   * A refund of more than this many fen asks for the operator's own password (the unbind's guard and
   * lockout); 0 asks for every refund.
   */
  refundPasswordAboveFen: number;
  /**
   * The built-in payment channel answers every refund at once; set, it answers 退款异常 instead, so
   * the retry path can be seen and tested without a real channel (PAYMENT_REFUND_FAILS=1).
   */
  paymentRefundFails: boolean;
  /** Absolute session lifetime, whatever the activity. */
  sessionMaxAgeSeconds: number;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Folder of the built console; served when it exists. */
  staticDir: string;
  /** Demo seed value: the same value gives the same city. */
  seed: number;
  /**
   * Map tiles under the network maps: an https XYZ template with {z}, {x} and {y} of a GCJ-02 tile
   * service the operator licenses; null draws the maps over a plain background (no internet needed).
   */
  mapTileUrl: string | null;
  /** How often every timed job runs (the go-live check); null keeps each job's own period (30 s). */
  jobIntervalMs: number | null;
  /** PII_KEY: the master key of personal data at rest (lib/pii.ts); null = the demo key file in DATA_DIR (PGlite only). */
  piiKey: Buffer | null;
  /**
   * Behind a reverse proxy: whom to believe about the client's address in X-Forwarded-For. false:
   * nobody; a number: that many proxy hops; a string: the proxies' addresses or CIDRs; true: every
   * hop (only when the proxy overwrites the header, since a client can write its own entries).
   */
  trustProxy: boolean | number | string;
  /** After SIGTERM and the requests under way, how long late requests still get the 503 envelope. */
  shutdownGraceMs: number;
  /** Socket and request limits: what a slow or greedy client may hold. */
  connections: ConnectionLimits;
  /** Login protection: attempts per minute before any password is hashed, and the hashing queue. */
  login: LoginLimits;
  /** Export tasks of the download centre. */
  exports: ExportLimits;
}

export interface ExportLimits {
  /** How long a finished file can be downloaded before it is removed. */
  ttlMs: number;
  /** A running task whose instance has not been heard of for this long is taken up again. */
  staleMs: number;
  /** PostgreSQL: the longest one query of an export may run on the exports' own connection. */
  queryTimeoutMs: number;
  /** How often an idle event stream pings (and checks the session it was opened with). */
  pingMs: number;
  /** Event streams one session may hold (its tabs); a further one closes the session's oldest. */
  streamsPerSession: number;
  /** Event streams one account may hold over all its sessions; a further one closes the account's oldest. */
  streamsPerAccount: number;
  /**
   * Event streams of all accounts on this instance; beyond it a new one is refused (503), so
   * streams, which hold their connection for hours, can never take the ones ordinary calls need.
   * 0 = no cap.
   */
  maxStreams: number;
}

export interface ConnectionLimits {
  /** Time to receive a whole request, head and body; slower senders get 408 and are cut off. */
  requestTimeoutMs: number;
  /** Time to receive the request head (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic either way for this long is closed (long answers stream more often). */
  socketIdleTimeoutMs: number;
  /** Open connections in all; beyond it new ones are dropped (keeps file descriptors for the database). */
  maxConnections: number;
  /** Open connections from one address; 0 = no per-address cap (the default behind a proxy). */
  maxConnectionsPerIp: number;
  /**
   * Connections that have not delivered a whole request (new, still sending, or idle between
   * requests); beyond it the one waiting longest is closed to make room for the newcomer, so such
   * sockets can never fill `maxConnections`. 0 = no budget.
   */
  maxPendingConnections: number;
  /** Bytes per second a request body must average once its grace is over; slower ones get 408. 0 = off. */
  minRequestBodyRate: number;
  /** How long a request body may take before its rate is judged. */
  requestBodyGraceMs: number;
}

export interface LoginLimits {
  /** Login attempts per minute from one address; 0 turns the limit off. */
  perIpPerMinute: number;
  /** Login attempts per minute for one user name from all addresses together; 0 turns it off. */
  perAccountPerMinute: number;
  /** Failed logins are answered no sooner than this, so their timing says nothing about the name. */
  failureFloorMs: number;
  /** Password hashes computed at once (scrypt is CPU-bound: keep a core for everything else). */
  hashConcurrency: number;
  /** Hashes allowed to wait; beyond it logins are answered 503 at once instead of queueing. */
  hashQueue: number;
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

/** An amount in yuan with at most two decimals, read exactly into fen. */
const yuan = (name: string, raw: string | undefined, fallbackFen: number): number => {
  if (raw === undefined || raw === '') return fallbackFen;
  const fen = yuanToFen(raw);
  if (fen === null) throw new Error(`${name} must be an amount in yuan with at most two decimals (e.g. 200.00), got "${raw}"`);
  return fen;
};

function trustProxyOf(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw === '' || /^(false|no|off|0)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return true;
  // A hop count: with one proxy in front, `1` believes exactly the entry that proxy appended.
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  if (/^[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*$/.test(raw)) return raw.replace(/\s+/g, '');
  throw new Error(`TRUST_PROXY must be false, true, a hop count or the proxies' addresses, got "${raw}"`);
}

/**
 * An https XYZ template, or nothing. The CSP allows images from its host only (plus `*.` for a
 * `{s}` subdomain), so the host must be one a policy can name.
 */
function tileUrlOf(value: string | undefined): string | null {
  if (!value) return null;
  if (!/^https:\/\/[^\s]+$/.test(value) || !['{z}', '{x}', '{y}'].every((p) => value.includes(p)) || !tileSourceOf(value)) {
    throw new Error('MAP_TILE_URL must be an https URL template with {z}, {x} and {y} and a plain host name (a leading {s} subdomain is fine), e.g. https://tiles.example.com/{z}/{x}/{y}.png');
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  const trustProxy = trustProxyOf(env.TRUST_PROXY);
  const requestTimeoutMs = num('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 30_000);
  const maxConnections = num('MAX_CONNECTIONS', env.MAX_CONNECTIONS, 1_000);
  // Each kind of long holder gets its own share of the connections, leaving the rest to calls.
  const maxPendingConnections = num('MAX_PENDING_CONNECTIONS', env.MAX_PENDING_CONNECTIONS, Math.floor(maxConnections / 4));
  const maxStreams = num('MAX_EVENT_STREAMS', env.MAX_EVENT_STREAMS, Math.floor(maxConnections / 2));
  if (maxConnections > 0 && maxPendingConnections + maxStreams >= maxConnections) {
    throw new Error(`MAX_PENDING_CONNECTIONS (${maxPendingConnections}) and MAX_EVENT_STREAMS (${maxStreams}) must leave room under MAX_CONNECTIONS (${maxConnections}) for ordinary calls`);
  }
  return {
    // Loopback unless asked: the demo accounts' password is published in the README.
    host: env.HOST || '127.0.0.1',
    port: num('PORT', env.PORT, 8080),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    databaseQueryTimeoutMs: num('DB_QUERY_TIMEOUT_MS', env.DB_QUERY_TIMEOUT_MS, 30_000),
    // Demo accounts with a published password must never appear on a real database by accident.
    seedDemo: bool('SEED_DEMO', env.SEED_DEMO, databaseUrl === undefined),
    tokenTtlSeconds: num('TOKEN_TTL_SECONDS', env.TOKEN_TTL_SECONDS, 1800),
    passwordMaxAgeDays: num('PASSWORD_MAX_AGE_DAYS', env.PASSWORD_MAX_AGE_DAYS, 90),
    refundPasswordAboveFen: yuan('REFUND_PASSWORD_ABOVE', env.REFUND_PASSWORD_ABOVE, 20_000),
    paymentRefundFails: bool('PAYMENT_REFUND_FAILS', env.PAYMENT_REFUND_FAILS, false),
    sessionMaxAgeSeconds: num('SESSION_MAX_AGE_SECONDS', env.SESSION_MAX_AGE_SECONDS, 12 * 3600),
    bodyLimit: num('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES, 256 * 1024),
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    seed: num('SEED', env.SEED, 20261122),
    mapTileUrl: tileUrlOf(env.MAP_TILE_URL),
    piiKey: env.PII_KEY ? parsePiiKey(env.PII_KEY) : null,
    jobIntervalMs: env.JOB_INTERVAL_MS ? Math.max(100, num('JOB_INTERVAL_MS', env.JOB_INTERVAL_MS, 30_000)) : null,
    trustProxy,
    shutdownGraceMs: num('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 1_000),
    connections: {
      requestTimeoutMs,
      headersTimeoutMs: Math.min(num('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 10_000), requestTimeoutMs || Infinity),
      keepAliveTimeoutMs: num('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, 5_000),
      socketIdleTimeoutMs: num('SOCKET_IDLE_TIMEOUT_MS', env.SOCKET_IDLE_TIMEOUT_MS, 120_000),
      maxConnections,
      // Behind a proxy every connection comes from the proxy's address: a per-address cap would cap everyone.
      maxConnectionsPerIp: num('MAX_CONNECTIONS_PER_IP', env.MAX_CONNECTIONS_PER_IP, trustProxy === false ? 100 : 0),
      maxPendingConnections,
      // Kestrel's MinRequestBodyDataRate: 240 bytes/s after 5 s. A console's body arrives at once.
      minRequestBodyRate: num('MIN_REQUEST_BODY_RATE', env.MIN_REQUEST_BODY_RATE, 240),
      requestBodyGraceMs: num('REQUEST_BODY_GRACE_MS', env.REQUEST_BODY_GRACE_MS, 5_000),
    },
    login: {
      perIpPerMinute: num('LOGIN_RATE_PER_IP', env.LOGIN_RATE_PER_IP, 60),
      perAccountPerMinute: num('LOGIN_RATE_PER_ACCOUNT', env.LOGIN_RATE_PER_ACCOUNT, 30),
      failureFloorMs: num('LOGIN_FAILURE_FLOOR_MS', env.LOGIN_FAILURE_FLOOR_MS, 300),
      hashConcurrency: Math.max(1, num('PASSWORD_HASH_CONCURRENCY', env.PASSWORD_HASH_CONCURRENCY, 1)),
      hashQueue: num('PASSWORD_HASH_QUEUE', env.PASSWORD_HASH_QUEUE, 64),
    },
    exports: {
      ttlMs: Math.max(1, num('EXPORT_TTL_HOURS', env.EXPORT_TTL_HOURS, 24)) * 3600_000,
      staleMs: Math.max(5, num('EXPORT_STALE_SECONDS', env.EXPORT_STALE_SECONDS, 30)) * 1000,
      queryTimeoutMs: num('EXPORT_QUERY_TIMEOUT_MS', env.EXPORT_QUERY_TIMEOUT_MS, 120_000),
      pingMs: 15_000,
      // Two or three tabs of one console each follow their tasks; more close the oldest.
      streamsPerSession: Math.max(1, num('EVENT_STREAMS_PER_SESSION', env.EVENT_STREAMS_PER_SESSION, 3)),
      streamsPerAccount: Math.max(1, num('EVENT_STREAMS_PER_ACCOUNT', env.EVENT_STREAMS_PER_ACCOUNT, 4)),
      maxStreams,
    },
  };
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The personal-data key: PII_KEY when given; the embedded demo makes its own in DATA_DIR; a
 * PostgreSQL deployment must be given one (a key kept beside a shared database protects nothing).
 */
export function resolvePiiKey(config: Pick<Config, 'piiKey' | 'databaseUrl' | 'dataDir'>): Buffer {
  if (config.piiKey) return config.piiKey;
  if (config.databaseUrl) throw new Error('PII_KEY is required with DATABASE_URL: 32 random bytes, base64 (e.g. `openssl rand -base64 32`)');
  return demoPiiKey(config.dataDir);
}
