import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePiiKey } from '../../src/server/config';
import { createPii, demoPiiKey, parsePiiKey } from '../../src/server/lib/pii';

const pii = createPii(Buffer.alloc(32, 1));

describe('personal data at rest', () => {
  it('encrypts with a fresh nonce each time and decrypts back; the sealed text holds nothing readable', () => {
    const id = '11010519491231002X';
    const a = pii.encrypt(id);
    const b = pii.encrypt(id);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[A-Za-z0-9+/=]+$/);
    expect(a).not.toContain('110105');
    expect(pii.decrypt(a)).toBe(id);
    expect(pii.decrypt(b)).toBe(id);
  });

  it('never reuses a nonce, across the pool the nonces are drawn from (3,000 seals of one value)', () => {
    const sealed = Array.from({ length: 3_000 }, () => pii.encrypt('13800138001'));
    const nonces = new Set(sealed.map((s) => Buffer.from(s.slice(3), 'base64').subarray(0, 12).toString('hex')));
    expect(nonces.size).toBe(3_000);
    expect(sealed.every((s) => pii.decrypt(s) === '13800138001')).toBe(true);
  });

  it('refuses a tampered value and another key', () => {
    const sealed = pii.encrypt('13800138001');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => pii.decrypt(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => createPii(Buffer.alloc(32, 2)).decrypt(sealed)).toThrow();
  });

  it('indexes exactly, whatever the spacing, dashes or the case of X, and per kind', () => {
    expect(pii.index('phone', '138 0013-8001')).toBe(pii.index('phone', '13800138001'));
    expect(pii.index('citizen', '11010519491231002x')).toBe(pii.index('citizen', '11010519491231002X'));
    expect(pii.index('phone', '13800138001')).not.toBe(pii.index('card', '13800138001'));
    expect(createPii(Buffer.alloc(32, 2)).index('phone', '13800138001')).not.toBe(pii.index('phone', '13800138001'));
  });

  it('reads PII_KEY as base64 or hex of 32 bytes; the demo key file is made once; PostgreSQL needs a key', () => {
    expect(parsePiiKey(Buffer.alloc(32, 3).toString('base64'))).toEqual(Buffer.alloc(32, 3));
    expect(parsePiiKey('ab'.repeat(32))).toEqual(Buffer.alloc(32, 0xab));
    expect(() => parsePiiKey('short')).toThrow(/PII_KEY/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pii-'));
    const first = demoPiiKey(dir);
    expect(demoPiiKey(dir)).toEqual(first);
    expect(fs.statSync(path.join(dir, 'pii.key')).mode & 0o777).toBe(0o600);
    expect(() => resolvePiiKey({ piiKey: null, databaseUrl: 'postgres://x', dataDir: dir })).toThrow(/PII_KEY is required/);
    fs.rmSync(dir, { recursive: true });
  });
});
