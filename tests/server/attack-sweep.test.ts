import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, auth, system } from '../../src/shared/api';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../support/test-server';

/**
 * Issue 9's attack sweep, kept as tests: what an attacker with a browser and curl would try first.
 * Each case names the attempt; the assertions are the result the closing note reports.
 */

let s: TestServer;
let dir: string;
const SECRET_FILE = 'secret-outside-dist.txt';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
  fs.mkdirSync(path.join(dir, 'dist', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>公交运营管理控制台</title>');
  fs.writeFileSync(path.join(dir, 'dist', 'assets', 'app-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, SECRET_FILE), 'TOP-SECRET');
  s = await startTestServer({ staticDir: path.join(dir, 'dist') });
});
afterAll(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A request with the path exactly as written: fetch would resolve `..` before sending. */
function rawPath(p: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: p, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('tampered tokens', () => {
  it('alg "none", a re-signed payload with a guessed key, a swapped payload and trailing junk: all 401, nothing read', async () => {
    const real = await s.login('viewer');
    const [header, payload, sig] = real.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const adminToken = await s.login('admin');
    const adminClaims = JSON.parse(Buffer.from(adminToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const attempts: Record<string, string> = {
      'alg none': `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'alg none, no dot': `${b64url({ alg: 'none' })}.${payload}`,
      'HS256 with a guessed key': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('secret')),
      "the admin's payload under the viewer's signature": `${header}.${b64url(adminClaims)}.${sig}`,
      'trailing junk': `${real}x`,
      'empty signature': `${header}.${payload}.`,
      'Bearer twice': `Bearer ${real}`,
    };
    for (const [what, token] of Object.entries(attempts)) {
      const res = await s.call(auth.currentUser, { token });
      expect(res.status, what).toBe(401);
      expect(res.body.data, what).toBeNull();
    }
    // The real ones still work: the refusals above are about the tampering.
    expect((await s.call(auth.currentUser, { token: real })).status).toBe(200);
  });

  it('a token of an ended session stays dead, even after the account logs in again', async () => {
    const first = await s.login('agent');
    await s.call(auth.logout, { token: first });
    await s.login('agent');
    const res = await s.call(auth.currentUser, { token: first });
    expect(res.status).toBe(401);
  });
});

describe('lockout bypass by case, spacing or look-alike characters', () => {
  it('after 5 failures for manager from one address, no spelling of the name gets a check with the right password', async () => {
    for (let i = 0; i < 5; i++) await s.call(auth.authenticate, { body: { username: 'manager', password: `wrong-${i}-x1` } });
    const spellings = ['MANAGER', 'Manager', ' manager ', 'manager\t', 'ｍａｎａｇｅｒ', 'manager\u200b', 'mana\u00adger', 'manaɡer'];
    for (const username of spellings) {
      const res = await s.call(auth.authenticate, { body: { username, password: DEMO_PASSWORD } });
      expect(res.body.code, JSON.stringify(username)).not.toBe(1);
      expect(res.body.data, JSON.stringify(username)).toBeNull();
    }
    // The same-name spellings meet the lock itself; look-alikes are other names that do not exist.
    expect((await s.call(auth.authenticate, { body: { username: 'MANAGER', password: DEMO_PASSWORD } })).status).toBe(429);
  });
});

describe('path traversal on static files', () => {
  it.each([
    `/../${SECRET_FILE}`,
    `/assets/../../${SECRET_FILE}`,
    `/assets/..%2f..%2f${SECRET_FILE}`,
    `/%2e%2e/${SECRET_FILE}`,
    `/assets/%2e%2e%2f%2e%2e%2f${SECRET_FILE}`,
    `/assets/..%5c..%5c${SECRET_FILE}`,
    `/assets/%252e%252e/%252e%252e/${SECRET_FILE}`,
    `/..%00/${SECRET_FILE}`,
    '/assets/../../../../../../etc/passwd',
  ])('%s never sends a file outside the build', async (p) => {
    const res = await rawPath(p);
    expect(res.text).not.toContain('TOP-SECRET');
    expect(res.text).not.toMatch(/root:.*:0:0:/);
    expect([200, 400, 404]).toContain(res.status);
  });
});

describe('oversized and odd requests', () => {
  it('a body over the limit is refused with 413 in the envelope, and nothing is stored', async () => {
    const admin = await s.login('admin');
    const res = await s.raw('POST', '/busline/api/bus/agreement/saveOrUpdate', {
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x', code: 'big', content: 'a'.repeat(3_000_000) }),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ code: 413, data: null });
    const list = await s.call(system.agreementList, { token: admin });
    expect(list.body.data.some((a) => a.code === 'big')).toBe(false);
  });

  it('__proto__ and constructor keys in a body pollute nothing and are refused or ignored', async () => {
    const admin = await s.login('admin');
    const res = await s.raw('POST', '/busline/api/user/update', {
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: '{"id":3,"firstName":"原型","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    });
    expect([200, 400]).toContain(res.status);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a body the route does not take (text, XML, a JSON array) gets a Chinese refusal in the envelope', async () => {
    const admin = await s.login('admin');
    for (const [type, body] of [
      ['text/plain', 'hello'],
      ['application/xml', '<a/>'],
      ['application/json', '[1,2,3]'],
      ['application/json', '{"id": 3,'],
    ] as const) {
      const res = await s.raw('POST', '/busline/api/user/update', { headers: { authorization: `Bearer ${admin}`, 'content-type': type }, body });
      expect(res.status, `${type} ${body}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${type} ${body}`).toBeLessThan(500);
      const env = JSON.parse(res.text) as { code: number; msg: string };
      expect(env.msg, `${type} ${body}`).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('a method override header does not turn a GET into a write', async () => {
    const viewer = await s.login('viewer');
    const res = await s.raw('GET', '/busline/api/user/query/3', { headers: { authorization: `Bearer ${viewer}`, 'x-http-method-override': 'DELETE' } });
    expect(res.status).toBeLessThan(500);
    const admin = await s.login('admin');
    expect((await s.call(account.userById, { token: admin, params: { id: 3 } })).body.code).toBe(1);
  });

  it('a very long query string and a deeply nested body are refused without a 500', async () => {
    const admin = await s.login('admin');
    const q = await s.call(account.userPage, { token: admin, query: { keyword: 'a'.repeat(5_000) } });
    expect(q.status).toBe(400);
    expect(q.body.msg).toMatch(/[\u4e00-\u9fff]/);
    const nested = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    const b = await s.raw('POST', '/busline/api/user/update', { headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: nested });
    expect(b.status).toBeGreaterThanOrEqual(400);
    expect(b.status).toBeLessThan(500);
  });
});
