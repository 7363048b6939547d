import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account } from '../../src/shared/api';
import { type TestServer, startTestServer } from '../support/test-server';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s.close());

const envelope = (text: string) => JSON.parse(text) as { code: number; msg: string; data: unknown };

describe('input the parser meets before any route', () => {
  it('a malformed URL encoding gets the envelope, without echoing the path', async () => {
    const res = await s.raw('GET', '/busline/api/user/query/%zz');
    expect(res.status).toBe(400);
    expect(envelope(res.text)).toEqual({ code: 400, msg: '请求地址不正确', data: null });
  });

  it('an oversize request head gets 431 in the envelope', async () => {
    const res = await s.raw('GET', '/busline/api/user/query/msg', { headers: { 'x-junk': 'a'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(envelope(res.text)).toEqual({ code: 431, msg: '请求头过大', data: null });
  });
});

describe('values that would slip through a loose coercion', () => {
  it.each([[true], [[4]], ['0b1'], [' 1'], [1.5], ['1e3']])('refuses %j as an id and edits nobody', async (id) => {
    const res = await s.call(account.userUpdate, { token: admin, body: { id, firstName: '被改了' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/账号ID/);
  });

  it('accepts a plain decimal string id in the path', async () => {
    const res = await s.raw('GET', '/busline/api/user/query/3', { headers: { authorization: `Bearer ${admin}` } });
    expect(envelope(res.text).code).toBe(1);
  });

  it('refuses NUL characters anywhere with a Chinese message', async () => {
    const res = await s.call(account.userUpdate, { token: admin, body: { id: 3, firstName: 'a\u0000' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('空字符');
    const q = await s.call(account.userPage, { token: admin, query: { keyword: '\u0000' } });
    expect(q.status).toBe(400);
  });
});
