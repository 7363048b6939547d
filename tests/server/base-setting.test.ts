import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, system } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { type TestServer, startTestServer } from '../support/test-server';

/** 基础设置 (settings module): the sidebar's QR code and the city centre, saved by the super user only. */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s.close());

const current = async () => ({
  qrCode: (await s.call(system.qrCode, { token: admin })).body.data,
  centre: (await s.call(system.cityLocation, { token: admin })).body.data,
});
const logRows = () => s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'CONFIG_SAVE')).orderBy(desc(t.sysLog.id));

describe('saving the base setting', () => {
  it('stores the QR address and the centre, answers them, and writes one audit row about no district', async () => {
    const before = await current();
    const body = { qrCode: 'https://cdn.example.cn/qr/bus.png', lat: 31.2304, lon: 121.4737 };
    const res = await s.call(system.configSave, { token: admin, body });
    // The answer carries 基础设置's version (issue 21), one past the one it was saved from.
    const version = before.centre.rowVersion + 1;
    expect(res.body).toEqual({ code: Code.OK, msg: '操作成功', data: { ...body, rowVersion: version } });
    expect(await current()).toEqual({ qrCode: body.qrCode, centre: { lat: 31.2304, lon: 121.4737, tileUrl: null, rowVersion: version } });
    const [row] = await logRows();
    expect(row).toMatchObject({ operatorLogin: 'admin', targetDistrictId: null, result: 1 });
    expect(row?.before).toEqual({ qrCode: before.qrCode, lat: before.centre.lat, lon: before.centre.lon });
    expect(row?.after).toEqual(body);
  });

  it('takes an inline image, and the log names it by its size instead of storing it', async () => {
    const png = `data:image/png;base64,${Buffer.alloc(3_000, 7).toString('base64')}`;
    const res = await s.call(system.configSave, { token: admin, body: { qrCode: png, lat: 31.23, lon: 121.47 } });
    expect(res.body.code).toBe(Code.OK);
    expect((await current()).qrCode).toBe(png);
    const [row] = await logRows();
    expect((row?.after as { qrCode: string }).qrCode).toBe('（内嵌图片 3 KB）');
  });

  it('clears the QR code with null', async () => {
    expect((await s.call(system.configSave, { token: admin, body: { qrCode: null, lat: 31.23, lon: 121.47 } })).body.code).toBe(Code.OK);
    expect((await current()).qrCode).toBeNull();
  });
});

describe('refusals change nothing', () => {
  const cases: [string, unknown, string, string][] = [
    ['swapped coordinates', { qrCode: null, lat: 121.47, lon: 31.23 }, 'lat', '纬度应在 3～54 之间（中国境内）'],
    ['a missing longitude', { qrCode: null, lat: 31.23 }, 'lon', '经度必须是数字'],
    ['a script address', { qrCode: 'javascript:alert(1)', lat: 31.23, lon: 121.47 }, 'qrCode', '二维码应为 http(s) 图片地址，或 PNG/JPEG/GIF/WebP 图片'],
    ['an SVG (it can carry script)', { qrCode: 'data:image/svg+xml;base64,PHN2Zz4=', lat: 31.23, lon: 121.47 }, 'qrCode', '二维码应为 http(s) 图片地址，或 PNG/JPEG/GIF/WebP 图片'],
    ['an image too large', { qrCode: `data:image/png;base64,${'A'.repeat(200_001)}`, lat: 31.23, lon: 121.47 }, 'qrCode', '二维码图片不能超过约 150 KB'],
    ['a number as text', { qrCode: null, lat: '31.23', lon: 121.47 }, 'lat', '纬度必须是数字'],
  ];

  it.each(cases)('%s → 400 under its field', async (_name, body, field, msg) => {
    const before = await current();
    const rows = (await logRows()).length;
    const res = await s.call(system.configSave, { token: admin, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ data: { errors: expect.arrayContaining([{ field, msg }]) as unknown } });
    expect(await current()).toEqual(before);
    expect(await logRows()).toHaveLength(rows);
  });

  it('a district manager and a plain user get 403, audited, and change nothing', async () => {
    const before = await current();
    for (const login of ['manager', 'viewer']) {
      const token = await s.login(login);
      const res = await s.call(system.configSave, { token, body: { qrCode: null, lat: 30, lon: 120 } });
      expect([res.status, res.body.code, res.body.msg]).toEqual([403, 403, '当前用户没有权限操作']);
      // They still read it: the sidebar shows the QR code to everyone.
      expect((await s.call(system.qrCode, { token })).body.code).toBe(Code.OK);
    }
    expect(await current()).toEqual(before);
    const denied = await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'DENIED'));
    expect(denied.filter((d) => d.target === system.configSave.id).map((d) => d.operatorLogin).sort()).toEqual(['manager', 'viewer']);
  });
});
