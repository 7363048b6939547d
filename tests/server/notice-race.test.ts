import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as notice from '../../src/shared/api/notice';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { notices } from '../../src/server/modules/notice-report/schema';
import { publishDueNotices } from '../../src/server/modules/notice-report/service';
import { MINUTE } from '../support/clock';
import { skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * 公告管理's races on PostgreSQL (a pool of connections, real row locks): two publishes of one draft,
 * the publish job on several instances, ten pins at once in one district.
 */
describe.skipIf(skipWithoutPostgres('notice races (publish twice, the job on two instances, 10 pins at once)'))('on PostgreSQL', () => {
  let s: TestServer;
  let admin: string;
  let manager: string;
  let area: number;
  const db = () => s.database.db;

  beforeAll(async () => {
    s = await startTestServer();
    [admin, manager] = await Promise.all([s.login('admin'), s.login('manager')]);
    area = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
  });
  afterAll(() => s?.close());

  const make = async (n: number, status: number, publishAt: Date | null) => {
    const now = s.clock.now();
    const rows = await db()
      .insert(notices)
      .values(Array.from({ length: n }, (_, i) => ({ districtId: area, title: `并发公告${status}-${i}-${now.getTime()}`, type: 2, content: '并发', status, publishAt, createdAt: now, updatedAt: now })))
      .returning({ id: notices.id });
    return rows.map((r) => r.id);
  };
  const audits = (type: string, ids: number[]) =>
    db()
      .select()
      .from(t.sysLog)
      .where(and(eq(t.sysLog.operationType, type), inArray(t.sysLog.target, ids.map((id) => `notice/${id}`))));

  it('two managers publish one draft at once: one publishes, the other is told it moved, one audit row', async () => {
    const [id] = await make(1, 0, null);
    const body = { id: id!, fromStatus: 0, toStatus: 2 };
    const [a, b] = await Promise.all([s.call(notice.noticeUpdateStatus, { token: manager, body }), s.call(notice.noticeUpdateStatus, { token: admin, body })]);
    expect([a.body.code, b.body.code].sort()).toEqual([0, 1]);
    expect([a, b].find((r) => r.body.code === 0)!.body.msg).toMatch(/已被他人处理，请刷新后查看/);
    expect(await audits('NOTICE_PUBLISH', [id!])).toHaveLength(1);
  });

  it('the job on four instances publishes each due notice once', async () => {
    const ids = await make(12, 1, new Date(s.clock.now().getTime() + MINUTE));
    s.clock.advance(2 * MINUTE);
    const deps = { db: s.database.db, clock: s.clock } as unknown as AppDeps;
    const runs = await Promise.all(Array.from({ length: 4 }, () => publishDueNotices(deps)));
    const published = runs.flatMap((r) => r.published).filter((id) => ids.includes(id));
    expect(published.sort()).toEqual([...ids].sort());
    expect(await audits('NOTICE_PUBLISH', ids)).toHaveLength(12);
  });

  it('10 pins at once in one district: exactly 3 are pinned', async () => {
    await db().update(notices).set({ top: 0 }).where(eq(notices.districtId, area));
    const ids = await make(10, 2, s.clock.now());
    const answers = await Promise.all(ids.map((id) => s.call(notice.noticeTop, { token: manager, body: { id, top: 1 } })));
    expect(answers.filter((r) => r.body.code === 1)).toHaveLength(3);
    expect(answers.filter((r) => r.body.code === 0).every((r) => r.body.msg === '每个区域最多置顶3条公告')).toBe(true);
    const pinned = await db().select().from(notices).where(and(eq(notices.districtId, area), eq(notices.top, 1)));
    expect(pinned).toHaveLength(3);
    expect(await audits('NOTICE_TOP', ids)).toHaveLength(3);
  });
});
