import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, system } from '../../src/shared/api';
import { type TestServer, startTestServer } from '../support/test-server';

/** Response hardening on every route class: the console page, a built asset, API answers and refusals. */
let s: TestServer;
let dir: string;
const INLINE = "\n      document.documentElement.style.setProperty('--theme', '#1890ff');\n    ";
const SCRIPT = "console.log('公交');".repeat(200);
const TILES = 'https://webrd0{s}.is.autonavi.com/appmaptile?x={x}&y={y}&z={z}';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-headers-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>公交运营管理控制台</title><script>${INLINE}</script><script type="module" src="/assets/app-abc123.js"></script>`);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(SCRIPT));
  s = await startTestServer({ staticDir: dir, mapTileUrl: TILES });
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

const directive = (csp: string, name: string) => new RegExp(`(?:^|;)\\s*${name} ([^;]+)`).exec(csp)?.[1];
const policyOf = async (url: string) => (await fetch(s.url + url)).headers.get('content-security-policy') ?? '';

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

  it('images come from this origin, data: and the tile server only; nothing is framed and no worker runs', async () => {
    for (const url of ['/', '/station/station', auth.currentUser.path, '/assets/app-abc123.js']) {
      const csp = await policyOf(url);
      expect(directive(csp, 'img-src'), url).toBe("'self' data: https://*.is.autonavi.com");
      for (const name of ['frame-src', 'child-src', 'worker-src']) expect(directive(csp, name), `${url} ${name}`).toBe("'none'");
    }
  });

  it("the page adds the sidebar QR code's origin, as long as it is shown from there", async () => {
    const admin = await s.login('admin');
    const save = (qrCode: string | null) => s.call(system.configSave, { token: admin, body: { qrCode, lat: 31.2304, lon: 121.4737 } });
    try {
      expect((await save('https://cdn.example.cn/qr/bus.png')).body.code).toBe(1);
      expect(directive(await policyOf('/user/user-list'), 'img-src')).toBe("'self' data: https://*.is.autonavi.com https://cdn.example.cn");
      // Only the page shows images: API answers keep the base policy.
      expect(directive(await policyOf(auth.currentUser.path), 'img-src')).toBe("'self' data: https://*.is.autonavi.com");
      // An inline image is data: already.
      expect((await save('data:image/png;base64,iVBORw0KGgo=')).body.code).toBe(1);
      expect(directive(await policyOf('/user/user-list'), 'img-src')).toBe("'self' data: https://*.is.autonavi.com");
    } finally {
      await save(null);
    }
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
