import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENU_IDS, Msg, auth, system } from '../../src/shared/api';
import type { Agreement } from '../../src/shared/api/system';
import * as t from '../../src/server/db/schema';
import { type TestServer, startTestServer } from '../support/test-server';

let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  manager = await s.login('manager');
  viewer = await s.login('viewer');
});
afterAll(() => s.close());

describe('menus and buttons', () => {
  it('the super user receives all 18 menus in the fixed order with parseable para', async () => {
    const res = await s.call(auth.authItems, { token: admin });
    const top = res.body.data.filter((i) => i.parentId === null);
    expect(top.map((i) => i.id)).toEqual([...MENU_IDS]);
    for (const item of res.body.data) {
      const para = JSON.parse(item.para) as { title: string };
      expect(para.title.length).toBeGreaterThan(0);
    }
    const buttons = res.body.data.filter((i) => i.type === 'button').map((i) => i.path);
    expect(buttons).toContain('REFUND_ORDER');
    expect(buttons).toContain('USER_ADD');
  });

  it('the call-centre agent has lookups and family cards but no refund', async () => {
    const agent = await s.login('agent');
    const res = await s.call(auth.authItems, { token: agent });
    const ids = res.body.data.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining(['order', 'busUser', 'callingCard']));
    expect(ids).not.toContain('REFUND_ORDER');
    expect(ids).not.toContain('user');
  });

  it('the viewer has no buttons at all', async () => {
    const res = await s.call(auth.authItems, { token: viewer });
    expect(res.body.data.filter((i) => i.type === 'button')).toEqual([]);
  });
});

describe('system log', () => {
  it('filters by operation type and operator, newest first', async () => {
    const res = await s.call(system.sysLogPage, { token: admin, query: { operationType: 'LOGIN', operator: 'manager' } });
    expect(res.body.data.content.length).toBeGreaterThan(0);
    for (const row of res.body.data.content) {
      expect(row).toMatchObject({ operationType: 'LOGIN', operatorLogin: 'manager', operationLabel: '登录', result: 1 });
    }
    const times = res.body.data.content.map((r) => r.createdDate);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by time range', async () => {
    const future = new Date(s.clock.now().getTime() + 3_600_000).toISOString();
    const res = await s.call(system.sysLogPage, { token: admin, query: { startTime: future } });
    expect(res.body.data.totalElements).toBe(0);
    const bad = await s.call(system.sysLogPage, { token: admin, query: { startTime: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('开始时间');
  });

  it('a manager sees only the log about the district', async () => {
    const res = await s.call(system.sysLogPage, { token: manager, query: { size: 200 } });
    expect(new Set(res.body.data.content.map((r) => r.targetDistrictId))).toEqual(new Set([2]));
  });

  it('lists the operation types with Chinese labels', async () => {
    const res = await s.call(system.sysLogOperationTypes, { token: admin });
    expect(res.body.data).toEqual(expect.arrayContaining([{ value: 'LOGIN', label: '登录' }, { value: 'DENIED', label: '越权访问' }]));
  });

  it('is refused to a plain user', async () => {
    expect((await s.call(system.sysLogPage, { token: viewer })).status).toBe(403);
  });
});

describe('districts', () => {
  it('the area list gives an openDistrict account every district and others their own', async () => {
    const all = await s.call(system.districtPage, { token: admin, query: { page: 0, size: 1000 } });
    expect(all.body.data.content.map((d) => d.name)).toEqual(['黄浦区', '徐汇区', '长宁区']);
    const own = await s.call(system.districtPage, { token: viewer, query: { page: 0, size: 1000 } });
    expect(own.body.data.content.map((d) => d.name)).toEqual(['徐汇区']);
  });
});

describe('agreements', () => {
  it('a manager edits an agreement of the district; the log keeps before and after', async () => {
    const list = await s.call(system.agreementList, { token: manager });
    const target = list.body.data[0];
    if (!target) throw new Error('no agreement seeded');
    expect(list.body.data.every((a) => a.districtId === 2)).toBe(true);
    const res = await s.call(system.agreementSave, {
      token: manager,
      body: { id: target.id, code: target.code, title: target.title, content: '新的协议内容' },
    });
    expect(res.body.data.content).toBe('新的协议内容');
    const [log] = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'AGREEMENT_SAVE'));
    expect((log?.before as Agreement).content).toBe(target.content);
    expect((log?.after as Agreement).content).toBe('新的协议内容');
  });

  it('refuses another district’s agreement to a manager, and changes nothing', async () => {
    const other = (await s.call(system.agreementList, { token: admin, district: 1 })).body.data[0];
    if (!other) throw new Error('no agreement in district 1');
    const res = await s.call(system.agreementSave, { token: manager, body: { id: other.id, code: other.code, title: '改', content: '改' } });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe(Msg.foreignDistrict);
    const again = (await s.call(system.agreementList, { token: admin, district: 1 })).body.data.find((a) => a.id === other.id);
    expect(again?.title).toBe(other.title);
  });

  it('creates in the chosen district, refuses a duplicate code, a missing district and a plain user', async () => {
    const body = { code: 'refund-rule', title: '退款规则', content: '七日内可退' };
    const created = await s.call(system.agreementSave, { token: admin, district: 3, body });
    expect(created.body.data.districtId).toBe(3);
    expect((await s.call(system.agreementSave, { token: admin, district: 3, body })).body.msg).toBe('该区域已存在相同编码的协议');
    expect((await s.call(system.agreementSave, { token: admin, body })).body.msg).toBe('请先选择区域再新增协议');
    expect((await s.call(system.agreementSave, { token: viewer, body })).status).toBe(403);
  });

  it('refuses too-long content and a bad code in Chinese', async () => {
    const long = await s.call(system.agreementSave, { token: manager, body: { code: 'x', title: 't', content: 'a'.repeat(50_001) } });
    expect(long.body.msg).toContain('协议内容不能超过50000个字符');
    const code = await s.call(system.agreementSave, { token: manager, body: { code: '中文', title: 't', content: 'c' } });
    expect(code.body.msg).toContain('协议编码只能包含');
  });
});

describe('config', () => {
  it('serves the city centre, the QR slot and the payment methods', async () => {
    const loc = await s.call(system.cityLocation, { token: viewer });
    expect(loc.body.data).toEqual({ lat: 31.2304, lon: 121.4737, tileUrl: null, rowVersion: expect.any(Number) });
    expect((await s.call(system.qrCode, { token: viewer })).body).toEqual({ code: 1, msg: Msg.ok, data: null });
    const pay = await s.call(system.payInfoList, { token: viewer });
    expect(pay.body.data.map((p) => p.name)).toEqual(['微信支付', '支付宝', '云闪付', '交通卡']);
  });
});

describe('robustness', () => {
  it('answers unknown API paths with a 404 envelope', async () => {
    const res = await s.raw('GET', '/busline/api/nope');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ code: 404, msg: Msg.notFound, data: null });
  });

  it('refuses an oversize body with 413 and never leaks internals', async () => {
    const res = await s.raw('POST', '/busline/api/authenticate', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'a', password: 'x'.repeat(300_000) }),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual({ code: 413, msg: Msg.tooLarge, data: null });
  });

  it('refuses broken JSON with a Chinese message and no stack trace', async () => {
    const res = await s.raw('POST', '/busline/api/authenticate', { headers: { 'content-type': 'application/json' }, body: '{"username":' });
    expect(res.status).toBe(400);
    expect(res.text).not.toMatch(/at .*\.ts|SyntaxError|stack/);
    expect(JSON.parse(res.text).msg).toBe(Msg.badJson);
  });
});
