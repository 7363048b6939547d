import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import pLimit from 'p-limit';

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LEN = 32;

function scrypt(password: string, salt: Buffer, n = N, r = R, p = P): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, KEY_LEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64; the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, salt: Buffer = randomBytes(16)): Promise<string> {
  const key = await scrypt(password, salt);
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash no password matches, verified for unknown logins so they take as long as known ones. */
export const DUMMY_HASH = `scrypt$${N}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

export interface PasswordWork {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/**
 * scrypt runs on libuv's thread pool: four at once on a two-core machine starve the event loop and
 * every other call waits (a 64-login flood pushed other calls' p50 to ~0.9 s). Hashes go through
 * one queue of `concurrency` at a time; past `queue` waiting, the caller is told at once (`busy`)
 * instead of joining a queue that only grows.
 */
export function passwordWork(opts: { concurrency: number; queue: number; busy: () => Error }): PasswordWork {
  const limit = pLimit(opts.concurrency);
  const run = <T>(work: () => Promise<T>): Promise<T> => {
    if (limit.activeCount + limit.pendingCount >= opts.concurrency + opts.queue) return Promise.reject(opts.busy());
    return limit(work);
  };
  return {
    hash: (password) => run(() => hashPassword(password)),
    verify: (password, stored) => run(() => verifyPassword(password, stored)),
  };
}
