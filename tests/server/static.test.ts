import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../support/test-server';

let s: TestServer;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>公交运营管理控制台</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  s = await startTestServer({ staticDir: dir });
});
afterAll(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('serving the built console', () => {
  it('serves the page for any console route, to GET and HEAD', async () => {
    const get = await s.raw('GET', '/user/user-list?page=2');
    expect(get.status).toBe(200);
    expect(get.text).toContain('公交运营管理控制台');
    expect(get.headers.get('cache-control')).toBe('no-cache');
    expect((await s.raw('HEAD', '/')).status).toBe(200);
  });

  it('serves hashed assets as immutable, and a missing one as 404 rather than the page', async () => {
    const asset = await s.raw('GET', '/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await s.raw('GET', '/assets/gone-000.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('<title>');
  });

  it('keeps API paths out of the fallback', async () => {
    const res = await s.raw('GET', '/buscodepc/fyapi/nope');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).code).toBe(404);
  });
});
