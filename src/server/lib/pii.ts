import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomFillSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Personal data at rest (README decision 71): citizen ids, phone numbers and names are stored
 * AES-256-GCM encrypted under a key from configuration (`PII_KEY`), never in the database itself;
 * exact lookups go through an HMAC-SHA256 blind index under a second key derived from the same
 * master key (HKDF), so `where citizen_hash = …` finds a rider without the table holding the value.
 */

export interface Pii {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** The blind index of a value, normalised the way it is looked up (trimmed, X upper-case, no spaces or dashes). */
  index(kind: 'citizen' | 'phone' | 'card', value: string): string;
  /** Bytes (an applicant's image) sealed the same way: iv ‖ tag ‖ body. */
  sealBytes(plain: Buffer): Buffer;
  openBytes(sealed: Buffer): Buffer;
}

const VERSION = 'v1';

export const normaliseForIndex = (value: string) => value.replace(/[\s-]/g, '').toUpperCase();

/**
 * Fresh random IVs, drawn from the system's generator 1,024 at a time: one call per IV cost the
 * demo seed (150,000 sealed fields) more than the encryption itself. Each IV is still used once.
 */
function ivSource(): () => Buffer {
  const pool = Buffer.alloc(12 * 1024);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    // A copy: the pool is overwritten when it is drawn again.
    const iv = Buffer.from(pool.subarray(next, next + 12));
    next += 12;
    return iv;
  };
}

export function createPii(masterKey: Buffer): Pii {
  if (masterKey.length !== 32) throw new Error('PII key must be 32 bytes');
  const encKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'bus-console pii encryption', 32));
  const macKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'bus-console pii blind index', 32));
  const nextIv = ivSource();
  return {
    encrypt(plain) {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    decrypt(sealed) {
      const [version, data] = sealed.split(':');
      if (version !== VERSION || !data) throw new Error('unknown sealed value');
      const raw = Buffer.from(data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', encKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    sealBytes(plain) {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    openBytes(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', encKey, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
    },
    index(kind, value) {
      return createHmac('sha256', macKey).update(`${kind}:${normaliseForIndex(value)}`).digest('base64url');
    },
  };
}

/** `PII_KEY`: 32 bytes, base64 (44 characters) or hex (64). */
export function parsePiiKey(value: string): Buffer {
  const v = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
  if (key.length !== 32) throw new Error('PII_KEY must be 32 bytes, base64 or hex (e.g. `openssl rand -base64 32`)');
  return key;
}

/**
 * The embedded demo keeps its key beside its data (`<DATA_DIR>/pii.key`, mode 0600), made on the
 * first start: the database files alone then hold no readable personal data.
 */
export function demoPiiKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'pii.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return parsePiiKey(fs.readFileSync(file, 'utf8'));
}
