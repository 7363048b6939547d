import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth } from '../../src/shared/api';
import { type TestServer, startTestServer } from '../support/test-server';

/** Response hardening on every route class: the console page, a built asset, API answers and refusals. */
let s: TestServer;
let dir: string;
const INLINE = "\n      document.documentElement.style.setProperty('--theme', '#1890ff');\n    ";
const SCRIPT = "console.log('公交');".repeat(200);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-headers-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>公交运营管理控制台</title><script>${INLINE}</script><script type="module" src="/assets/app-abc123.js"></script>`);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(SCRIPT));
  s = await startTestServer({ staticDir: dir });
});
afterAll(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const COMMON: Record<string, RegExp> = {
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^same-origin$/,
  'x-frame-options': /^SAMEORIGIN$/,
  'cross-origin-opener-policy': /^same-origin$/,
  'content-security-policy': /frame-ancestors 'none'/,
};

describe('security headers', () => {
  it.each([
    ['the console page', '/user/user-list'],
    ['a built asset', '/assets/app-abc123.js'],
    ['an API answer', auth.currentUser.path],
    ['an unknown API path', '/busline/api/nothing-here'],
  ])('%s carries them', async (_name, url) => {
    const res = await fetch(s.url + url);
    for (const [header, value] of Object.entries(COMMON)) expect(res.headers.get(header), header).toMatch(value);
  });

  it('the page allows scripts from this origin and its own hashed inline script only', async () => {
    const csp = (await fetch(`${s.url}/`)).headers.get('content-security-policy') ?? '';
    const hash = createHash('sha256').update(INLINE).digest('base64');
    const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1];
    expect(scriptSrc).toBe(`'self' 'sha256-${hash}'`);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  it('API answers, refusals included, are never stored by caches', async () => {
    for (const url of [auth.currentUser.path, '/busline/api/nothing-here', '/buscodepc/fyapi/config/qrCode']) {
      expect((await fetch(s.url + url)).headers.get('cache-control'), url).toBe('no-store');
    }
  });
});

describe('compressed delivery', () => {
  it('sends the prebuilt brotli or gzip file as the browser accepts, immutable, varying by encoding', async () => {
    for (const [accept, encoding, body] of [
      ['br, gzip', 'br', zlib.brotliCompressSync(SCRIPT)],
      ['gzip', 'gzip', zlib.gzipSync(SCRIPT)],
    ] as const) {
      const res = await fetch(`${s.url}/assets/app-abc123.js`, { headers: { 'accept-encoding': accept }, decompress: false } as RequestInit);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
    }
    const plain = await s.raw('GET', '/assets/app-abc123.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.text).toBe(SCRIPT);
  });
});
