import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account } from '../../src/shared/api';
import * as notice from '../../src/shared/api/notice';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { notices } from '../../src/server/modules/notice-report/schema';
import { publishDueNotices } from '../../src/server/modules/notice-report/service';
import { sanitizeRichText } from '../../src/shared/domain/rich-text';
import { HOUR, MINUTE } from '../support/clock';
import { exportThroughTask } from '../support/export-task';
import { type TestServer, startTestServer } from '../support/test-server';

/** 公告管理 against the real server: scope, filters, the status flow and its refusals, pins, audit, the job. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;

const db = () => s.database.db;
const jobDeps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
});
afterAll(() => s.close());

const list = (token: string, query: Record<string, string | number> = {}, district?: number) => s.call(notice.noticePage, { token, query: { size: 1000, ...query }, district });
const move = (token: string, body: Record<string, unknown>) => s.call(notice.noticeUpdateStatus, { token, body });
const auditRows = (type: string, id?: number) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), id ? eq(t.sysLog.target, `notice/${id}`) : undefined));

let made = 0;
/** A notice of the test's own, as the seed would write it. */
async function make(v: { districtId: number | null; status?: number; top?: number; publishAt?: Date | null; expireAt?: Date | null; title?: string }) {
  const now = s.clock.now();
  const status = v.status ?? 0;
  const [row] = await db()
    .insert(notices)
    .values({
      districtId: v.districtId,
      title: v.title ?? `测试公告${++made}`,
      type: 1,
      content: '测试内容',
      top: v.top ?? 0,
      status,
      publishAt: v.publishAt !== undefined ? v.publishAt : status === 0 ? null : new Date(now.getTime() - HOUR),
      expireAt: v.expireAt ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}
const stored = async (id: number) => (await db().select().from(notices).where(eq(notices.id, id)))[0];

describe('the seeded notices (second wave §2)', () => {
  it('60 in all: 6 city-wide, 5 scheduled, 8 withdrawn, 3 pinned; the summary line counts the same', async () => {
    const all = (await list(admin)).body.data.content;
    expect(all.length).toBe(60);
    expect(all.filter((n) => n.districtId === null).length).toBe(6);
    expect(all.filter((n) => n.status === 1).length).toBe(5);
    expect(all.filter((n) => n.status === 3).length).toBe(8);
    expect(all.filter((n) => n.top === 1).length).toBe(3);
    const total = (await s.call(notice.noticeTotal, { token: admin })).body.data;
    expect(total).toEqual({ total: 60, byStatus: { draft: 8, scheduled: 5, published: 39, offline: 8 }, top: 3 });
  });
});

describe('the list', () => {
  it('a district manager reads the district’s notices and the city-wide ones, and may change only the district’s', async () => {
    const mine = (await list(manager)).body.data.content;
    expect(mine.length).toBeGreaterThan(6);
    expect(new Set(mine.map((n) => n.districtId))).toEqual(new Set([xuhui, null]));
    for (const n of mine) expect(n.manageable).toBe(n.districtId === xuhui);
    // The super user on one area: that area and the city; on 全部区域 every notice is the super user's to change.
    const hp = (await list(admin, {}, huangpu)).body.data.content;
    expect(new Set(hp.map((n) => n.districtId))).toEqual(new Set([huangpu, null]));
    expect((await list(admin)).body.data.content.every((n) => n.manageable)).toBe(true);
  });

  it('filters by title keyword, type, status and pin; sorts by publish time; counts by status with the same filters', async () => {
    const mark = await make({ districtId: xuhui, status: 2, title: '筛选专用公告标题' });
    const byTitle = (await list(manager, { title: '筛选专用' })).body.data.content;
    expect(byTitle.map((n) => n.id)).toEqual([mark.id]);
    for (const [key, value] of [['type', 3], ['status', 1], ['top', 1]] as const) {
      const rows = (await list(admin, { [key]: value })).body.data.content;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((n) => n[key] === value)).toBe(true);
    }
    const sorted = (await list(admin, { status: 2, sort: 'publishAt,asc' })).body.data.content.map((n) => n.publishAt!);
    expect(sorted).toEqual([...sorted].sort());
    const total = (await s.call(notice.noticeTotal, { token: manager, query: { title: '筛选专用' } })).body.data;
    expect(total).toEqual({ total: 1, byStatus: { draft: 0, scheduled: 0, published: 1, offline: 0 }, top: 0 });
  });

  it('refuses malformed and too long filters, an unknown sort, and readers without the menu', async () => {
    const cases: Array<[string, string, Record<string, string | number>, number, RegExp]> = [
      ['status out of the flow', manager, { status: 7 }, 400, /公告状态应为 0–3/],
      ['type as text', manager, { type: 'x' }, 400, /公告类型/],
      ['title over 50', manager, { title: '长'.repeat(51) }, 400, /标题不能超过50个字符/],
      ['unknown sort', manager, { sort: 'content,asc' }, 400, /排序参数/],
      ['the read-only group', viewer, {}, 403, /./],
    ];
    for (const [what, token, query, status, msg] of cases) {
      const res = await list(token, query);
      expect(res.status, what).toBe(status);
      expect(res.body.msg, what).toMatch(msg);
    }
    // The agents (客服坐席组) see the menu since issue 24 (feedback lives under it): they read, and change nothing.
    expect((await list(agent)).status).toBe(200);
  });

  it('queryById answers the content, within the reader’s scope only', async () => {
    const other = await make({ districtId: huangpu, status: 2 });
    const mine = await make({ districtId: xuhui, status: 2 });
    expect((await s.call(notice.noticeById, { token: manager, query: { id: mine.id } })).body.data).toMatchObject({ id: mine.id, content: '测试内容' });
    expect((await s.call(notice.noticeById, { token: manager, query: { id: other.id } })).body.msg).toBe('公告不存在');
  });
});

describe('导出 Excel', () => {
  it('a 下载中心 task of the filtered list in the reader’s area (no body text), audited; refuses a malformed filter and the read-only group', async () => {
    const mine = await make({ districtId: xuhui, status: 2, title: '导出专用公告' });
    const other = await make({ districtId: huangpu, status: 2, title: '导出专用别区公告' });
    const { sheet } = await exportThroughTask(s, notice.noticeExport, manager, { status: 2, title: '导出专用' });
    const head = sheet.rows[0]!;
    expect(head).toEqual(expect.arrayContaining(['编号', '区域', '标题', '类型', '状态', '发布时间', '阅读数']));
    const body = sheet.rows.slice(1);
    expect(body.map((r) => Number(r[head.indexOf('编号')]))).toEqual([mine.id]);
    expect(body[0]![head.indexOf('状态')]).toBe('已发布');
    expect(JSON.stringify(sheet.rows)).not.toContain('测试内容');
    expect(body.some((r) => Number(r[0]) === other.id)).toBe(false);
    expect(await auditRows('NOTICE_EXPORT')).not.toHaveLength(0);
    expect((await s.call(notice.noticeExport, { token: manager, query: { status: 9 } })).status).toBe(400);
    expect((await s.call(notice.noticeExport, { token: viewer })).status).toBe(403);
  });
});

describe('the status flow', () => {
  it('立即发布: the draft is published now by the manager, with one audit row about the district in the same transaction', async () => {
    const n = await make({ districtId: xuhui });
    const res = await move(manager, { id: n.id, fromStatus: 0, toStatus: 2 });
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({ status: 2, publishedByName: '徐汇区管理员', publishAt: s.clock.now().toISOString() });
    const rows = await auditRows('NOTICE_PUBLISH', n.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operatorLogin: 'manager', targetDistrictId: xuhui });
  });

  it('a stale fromStatus, a move the flow does not have, a wrong district, the city-wide set and a viewer are refused, changing nothing', async () => {
    const published = await make({ districtId: xuhui, status: 2 });
    const foreign = await make({ districtId: huangpu });
    const city = await make({ districtId: null });
    const cases: Array<[string, string, Record<string, unknown>, number, RegExp]> = [
      ['stale fromStatus', manager, { id: published.id, fromStatus: 0, toStatus: 2 }, 200, /已被他人处理，请刷新后查看/],
      ['not in the flow', manager, { id: published.id, fromStatus: 2, toStatus: 1, publishAt: new Date(s.clock.now().getTime() + HOUR).toISOString() }, 200, /不能从「已发布」改为「待发布」/],
      ['another district', manager, { id: foreign.id, fromStatus: 0, toStatus: 2 }, 403, /./],
      ['city-wide', manager, { id: city.id, fromStatus: 0, toStatus: 2 }, 403, /全市公告只有超级管理员可以修改/],
      ['a viewer', viewer, { id: published.id, fromStatus: 2, toStatus: 3 }, 403, /./],
      ['malformed status', manager, { id: published.id, fromStatus: 2, toStatus: 9 }, 400, /公告状态应为 0–3/],
      ['malformed id', manager, { id: 'x', fromStatus: 2, toStatus: 3 }, 400, /公告ID/],
    ];
    for (const [what, token, body, status, msg] of cases) {
      const res = await move(token, body);
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).not.toBe(1);
      expect(res.body.msg, what).toMatch(msg);
    }
    expect((await stored(published.id))?.status).toBe(2);
    expect((await stored(foreign.id))?.status).toBe(0);
    expect((await stored(city.id))?.status).toBe(0);
    for (const id of [published.id, foreign.id, city.id]) expect(await auditRows('NOTICE_WITHDRAW', id)).toHaveLength(0);
    // The super user publishes the city-wide one.
    expect((await move(admin, { id: city.id, fromStatus: 0, toStatus: 2 })).body.code).toBe(1);
  });

  it('定时发布 refuses a time passed, a missing time and one after the expiry; 取消定时 goes back to a draft', async () => {
    const n = await make({ districtId: xuhui, expireAt: new Date(s.clock.now().getTime() + 2 * HOUR) });
    const at = (ms: number) => new Date(s.clock.now().getTime() + ms).toISOString();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ publishAt: at(-MINUTE) }, '定时发布时间不能早于当前时间'],
      [{}, '请选择定时发布时间'],
      [{ publishAt: at(3 * HOUR) }, '下线时间必须晚于发布时间'],
    ];
    for (const [more, msg] of refusals) {
      const res = await move(manager, { id: n.id, fromStatus: 0, toStatus: 1, ...more });
      expect(res.body).toMatchObject({ code: 0, msg, data: { errors: [{ field: 'publishAt', msg }] } });
    }
    expect((await stored(n.id))?.status).toBe(0);
    const ok = await move(manager, { id: n.id, fromStatus: 0, toStatus: 1, publishAt: at(HOUR) });
    expect(ok.body.data).toMatchObject({ status: 1, publishAt: at(HOUR) });
    expect(await auditRows('NOTICE_SCHEDULE', n.id)).toHaveLength(1);
    const back = await move(manager, { id: n.id, fromStatus: 1, toStatus: 0 });
    expect(back.body.data).toMatchObject({ status: 0, publishAt: null });
    expect(await auditRows('NOTICE_UNSCHEDULE', n.id)).toHaveLength(1);
  });

  it('撤回 takes a published notice down and unpins it; 重新编辑 turns it into a draft again', async () => {
    const n = await make({ districtId: xuhui, status: 2, top: 1 });
    const res = await move(manager, { id: n.id, fromStatus: 2, toStatus: 3 });
    expect(res.body.data).toMatchObject({ status: 3, top: 0 });
    expect(await auditRows('NOTICE_WITHDRAW', n.id)).toHaveLength(1);
    expect((await move(manager, { id: n.id, fromStatus: 3, toStatus: 0 })).body.data).toMatchObject({ status: 0 });
    expect(await auditRows('NOTICE_REDRAFT', n.id)).toHaveLength(1);
  });

  it('a reader with the menu but no button reads the notices and moves none', async () => {
    const [group] = await db().insert(t.roleGroups).values({ name: '公告只读组', description: '只看公告', createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
    await db().insert(t.roleGroupItems).values(['noticeReport', 'noticeReport.notice'].map((itemId) => ({ groupId: group!.id, itemId })));
    const added = await s.call(account.userAdd, { token: admin, body: { login: 'noticereader', firstName: '公告读者', password: 'Notice@2026x', authority: 'ROLE_USER', groupId: group!.id, districtId: xuhui } });
    expect(added.body.code).toBe(1);
    const reader = await s.login('noticereader', 'Notice@2026x');
    const n = await make({ districtId: xuhui });
    expect((await list(reader)).status).toBe(200);
    expect((await move(reader, { id: n.id, fromStatus: 0, toStatus: 2 })).status).toBe(403);
    expect((await s.call(notice.noticeTop, { token: reader, body: { id: n.id, top: 1 } })).status).toBe(403);
    expect((await stored(n.id))?.status).toBe(0);
  });
});

describe('pins and deletion', () => {
  it('at most 3 pinned per district: the fourth is refused, unpinning frees a place; a withdrawn notice is not pinned', async () => {
    const area = (await db().select().from(t.districts)).find((d) => d.id !== xuhui && d.id !== huangpu)!.id;
    await db().update(notices).set({ top: 0 }).where(eq(notices.districtId, area));
    const rows = await Promise.all([0, 1, 2, 3].map(() => make({ districtId: area, status: 2 })));
    const top = (id: number, v: 0 | 1) => s.call(notice.noticeTop, { token: admin, body: { id, top: v } });
    for (const r of rows.slice(0, 3)) expect((await top(r.id, 1)).body.data).toMatchObject({ top: 1 });
    const refused = await top(rows[3]!.id, 1);
    expect(refused.body).toMatchObject({ code: 0, msg: '每个区域最多置顶3条公告' });
    expect((await stored(rows[3]!.id))?.top).toBe(0);
    expect((await top(rows[0]!.id, 0)).body.data).toMatchObject({ top: 0 });
    expect((await top(rows[3]!.id, 1)).body.data).toMatchObject({ top: 1 });
    expect(await auditRows('NOTICE_TOP', rows[3]!.id)).toHaveLength(1);
    const gone = await make({ districtId: area, status: 3 });
    expect((await top(gone.id, 1)).body.msg).toBe('已下线的公告不能置顶');
    // Another district's manager cannot pin here.
    expect((await s.call(notice.noticeTop, { token: manager, body: { id: rows[1]!.id, top: 0 } })).status).toBe(403);
  });

  it('删除 takes drafts only; the row and its audit row go in one transaction', async () => {
    const draft = await make({ districtId: xuhui });
    const published = await make({ districtId: xuhui, status: 2 });
    const refused = await s.call(notice.noticeDelete, { token: manager, query: { id: published.id } });
    expect(refused.body.code).toBe(0);
    expect(refused.body.msg).toMatch(/只能删除草稿/);
    expect(await stored(published.id)).toBeTruthy();
    expect((await s.call(notice.noticeDelete, { token: viewer, query: { id: draft.id } })).status).toBe(403);
    const ok = await s.call(notice.noticeDelete, { token: manager, query: { id: draft.id } });
    expect(ok.body).toMatchObject({ code: 1, data: { id: draft.id } });
    expect(await stored(draft.id)).toBeUndefined();
    expect(await auditRows('NOTICE_DELETE', draft.id)).toHaveLength(1);
    expect((await s.call(notice.noticeDelete, { token: manager, query: { id: draft.id } })).body.msg).toBe('公告不存在');
  });
});

describe('the job notice.publish', () => {
  it('publishes what is due once (runs side by side included), takes down what has expired, and logs each as the system', async () => {
    const due = await make({ districtId: xuhui, status: 1, publishAt: new Date(s.clock.now().getTime() + 10 * MINUTE) });
    const later = await make({ districtId: xuhui, status: 1, publishAt: new Date(s.clock.now().getTime() + 5 * HOUR) });
    const expiring = await make({ districtId: xuhui, status: 2, expireAt: new Date(s.clock.now().getTime() + 20 * MINUTE) });
    s.clock.advance(30 * MINUTE);
    const runs = await Promise.all([publishDueNotices(jobDeps()), publishDueNotices(jobDeps())]);
    const published = runs.flatMap((r) => r.published);
    expect(published.filter((id) => id === due.id)).toHaveLength(1);
    expect(published).not.toContain(later.id);
    expect(runs.flatMap((r) => r.expired).filter((id) => id === expiring.id)).toHaveLength(1);
    expect(await stored(due.id)).toMatchObject({ status: 2 });
    expect(await stored(later.id)).toMatchObject({ status: 1 });
    expect(await stored(expiring.id)).toMatchObject({ status: 3, top: 0 });
    expect(await auditRows('NOTICE_PUBLISH', due.id)).toMatchObject([{ operatorLogin: 'system', targetDistrictId: xuhui }]);
    expect(await auditRows('NOTICE_EXPIRE', expiring.id)).toHaveLength(1);
    expect(await publishDueNotices(jobDeps())).toEqual({ published: [], expired: [] });
    // The seeded schedule is hours to days ahead: still waiting.
    expect(await db().select().from(notices).where(eq(notices.status, 1))).not.toHaveLength(0);
  });
});

/** Markup that would run script if a page put it in as HTML: every text field of a notice gets each. */
const XSS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=2">',
  '<a href="javascript:window.__xss=3">点我</a>',
  '<a href="java&#x09;script:window.__xss=4">点我</a>',
  '<svg onload="window.__xss=5"><circle r="1"/></svg>',
  '<style>body{background:url(javascript:window.__xss=6)}</style>',
  '<iframe src="javascript:window.__xss=7"></iframe>',
  '<p style="background:url(x)" onclick="window.__xss=8">文字</p>',
  '"><svg/onload=window.__xss=9>',
];
/** What no stored or answered rich text may hold: an element or attribute that runs or loads anything. */
const RUNS = /<script|<svg|<style|<iframe|<img|<object|<embed|\son\w+=|javascript:|style=/i;

describe('新建公告 / 编辑公告 (saveOrUpdate)', () => {
  // The job's test moved the clock past the sessions' idle limit: sign in again.
  beforeAll(async () => {
    [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  });
  const save = (token: string, body: Record<string, unknown>, district?: number) => s.call(notice.noticeSave, { token, body, district });
  const draft = { title: '暴雨天气运营提示', type: 1, content: '<h3>运营安排</h3><p>部分线路<strong>缩线运营</strong>。</p><ul><li>1路</li></ul><p><a href="https://example.gov.cn/x">详情</a></p>' };

  it('a district manager writes a draft in the district: stored as sent (the allow-list keeps it whole), answered with its content, audited', async () => {
    const res = await save(manager, { ...draft, expireAt: new Date(s.clock.now().getTime() + 24 * HOUR).toISOString() });
    expect(res.body.code).toBe(1);
    const id = res.body.data.id;
    expect(res.body.data).toMatchObject({ status: 0, districtId: xuhui, title: draft.title, type: 1, content: draft.content, lineCodes: [], createdByName: '徐汇区管理员' });
    expect(await stored(id)).toMatchObject({ status: 0, districtId: xuhui, content: draft.content, top: 0 });
    expect(await auditRows('NOTICE_SAVE', id)).toMatchObject([{ operatorLogin: 'manager', targetDistrictId: xuhui }]);
    // Edited from the version it answered: title, type, lines and content change; the version moves on.
    const lines = await db().selectDistinct({ code: t.busLines.code }).from(t.busLines).limit(2);
    const codes = lines.map((l) => l.code);
    const edited = await save(manager, { id, title: '线路临时调整', type: 3, content: '<p>改道</p>', lineCodes: [...codes, codes[0]], expireAt: null, rowVersion: res.body.data.rowVersion });
    expect(edited.body.data).toMatchObject({ id, title: '线路临时调整', type: 3, content: '<p>改道</p>', lineCodes: codes, expireAt: null, rowVersion: res.body.data.rowVersion + 1 });
    // Saving again from the first version is someone else's change overwritten: refused.
    const stale = await save(manager, { id, ...draft, rowVersion: res.body.data.rowVersion });
    expect(stale.body.msg).toMatch(/已被他人修改/);
    expect((await stored(id))?.title).toBe('线路临时调整');
    expect(await auditRows('NOTICE_SAVE', id)).toHaveLength(2);
  });

  it('stored-XSS payloads in every text field: the content is stored and answered inert, the title kept as plain text, a line refused', async () => {
    for (const payload of XSS) {
      const res = await save(manager, { title: payload.slice(0, 50), type: 2, content: `<p>正文</p>${payload}` });
      expect(res.body.code, payload).toBe(1);
      const row = await stored(res.body.data.id);
      for (const text of [row!.content, res.body.data.content]) {
        expect(text, payload).not.toMatch(RUNS);
        expect(text, payload).toContain('<p>正文</p>');
      }
      // The title is text, never markup: stored and answered exactly as typed, shown by the console as text.
      expect(row!.title).toBe(payload.slice(0, 50));
      expect((await s.call(notice.noticeById, { token: manager, query: { id: res.body.data.id } })).body.data.content).not.toMatch(RUNS);
      const line = await save(manager, { title: '线路', type: 3, content: '<p>x</p>', lineCodes: [payload.slice(0, 20)] });
      expect(line.body.code, payload).toBe(0);
      expect(line.body.msg).toMatch(/^线路不存在：/);
    }
    // A link keeps only a web, mail or phone address.
    const links = await save(manager, { title: '链接', type: 2, content: '<p><a href="https://a.example/b?c=1&amp;d=2">网</a><a href="mailto:x@example.com">信</a><a href="tel:12345">电</a><a href="data:text/html,x">数</a><a href="/relative">相</a></p>' });
    expect(links.body.data.content).toBe('<p><a href="https://a.example/b?c=1&amp;d=2">网</a><a href="mailto:x@example.com">信</a><a href="tel:12345">电</a><a>数</a><a>相</a></p>');
  });

  it('content empty after sanitising, malformed, too long or missing fields, an expiry passed, a 线路调整 without lines: refused, nothing stored', async () => {
    const before = (await db().select({ n: notices.id }).from(notices)).length;
    const past = new Date(s.clock.now().getTime() - MINUTE).toISOString();
    const cases: Array<[string, Record<string, unknown>, number, string | RegExp, string?]> = [
      ['markup only', { ...draft, content: '<p><br></p>' }, 200, '公告内容不能为空', 'content'],
      ['script only', { ...draft, content: '<script>alert(1)</script><img src=x onerror=alert(1)>' }, 200, '公告内容不能为空', 'content'],
      ['empty content', { ...draft, content: '' }, 400, /公告内容不能为空/],
      ['content over 50,000', { ...draft, content: `<p>${'长'.repeat(50_000)}</p>` }, 400, /公告内容不能超过50000个字符/],
      ['no title', { ...draft, title: '  ' }, 400, /标题不能为空/],
      ['title over 50', { ...draft, title: '长'.repeat(51) }, 400, /标题不能超过50个字符/],
      ['no type', { title: 'x', content: '<p>x</p>' }, 400, /公告类型/],
      ['type 9', { ...draft, type: 9 }, 400, /公告类型/],
      ['content a number', { ...draft, content: 5 }, 400, /公告内容/],
      ['expiry passed', { ...draft, expireAt: past }, 200, '下线时间必须晚于发布时间', 'expireAt'],
      ['expiry not a time', { ...draft, expireAt: '明天' }, 400, /下线时间不是有效的时间/],
      ['线路调整 without lines', { ...draft, type: 3 }, 200, '线路调整公告请选择调整的线路', 'lineCodes'],
      ['lines not a list', { ...draft, lineCodes: '1' }, 400, /线路应为线路编号的列表/],
      ['51 lines', { ...draft, lineCodes: Array.from({ length: 51 }, (_, i) => `${i}`) }, 400, /线路最多50条/],
    ];
    for (const [what, body, status, msg, field] of cases) {
      const res = await save(manager, body);
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).not.toBe(1);
      expect(res.body.msg, what).toMatch(msg);
      if (field) expect(res.body.data, what).toMatchObject({ errors: [{ field }] });
    }
    expect((await db().select({ n: notices.id }).from(notices)).length).toBe(before);
  });

  it('only drafts change; wrong role, another district and the city-wide set are refused', async () => {
    const scheduled = await make({ districtId: xuhui, status: 1, publishAt: new Date(s.clock.now().getTime() + HOUR) });
    const published = await make({ districtId: xuhui, status: 2 });
    const offline = await make({ districtId: xuhui, status: 3 });
    const foreign = await make({ districtId: huangpu });
    const city = await make({ districtId: null });
    const mine = await make({ districtId: xuhui });
    const cases: Array<[string, string, Record<string, unknown>, number, string | RegExp]> = [
      ['已发布', manager, { id: published.id, ...draft }, 200, '已发布的公告不能修改，请先撤回'],
      ['待发布', manager, { id: scheduled.id, ...draft }, 200, '待发布的公告不能修改，请先取消定时'],
      ['已下线', manager, { id: offline.id, ...draft }, 200, '已下线的公告不能修改，请先转为草稿'],
      ['another district', manager, { id: foreign.id, ...draft }, 403, /./],
      ['city-wide by a district manager', manager, { id: city.id, ...draft }, 403, '全市公告只有超级管理员可以修改'],
      ['the read-only group', viewer, { id: mine.id, ...draft }, 403, /./],
      ['an agent (no 编辑公告)', agent, { id: mine.id, ...draft }, 403, /./],
      ['a new notice by an agent', agent, draft, 403, /./],
      ['a notice that is not there', manager, { id: 99_999_999, ...draft }, 200, '公告不存在'],
    ];
    for (const [what, token, body, status, msg] of cases) {
      const res = await save(token, body);
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).not.toBe(1);
      expect(res.body.msg, what).toMatch(msg);
    }
    for (const n of [scheduled, published, offline, foreign, city, mine]) expect((await stored(n.id))?.title).toBe(n.title);
  });

  it('the super user writes city-wide on 全部区域, or in the area chosen; an administrator on 全部区域 must choose an area', async () => {
    const city = await save(admin, { ...draft, districtId: null });
    expect(city.body.data).toMatchObject({ districtId: null, districtName: null, status: 0 });
    const chosen = await save(admin, { ...draft, districtId: huangpu });
    expect(chosen.body.data).toMatchObject({ districtId: huangpu });
    // With an area chosen in the top bar the notice is that area's, whatever the body says.
    const header = await save(admin, { ...draft, districtId: null }, xuhui);
    expect(header.body.data).toMatchObject({ districtId: xuhui });
  });

  it('the seeded notices are rich text the allow-list keeps whole, 线路调整 ones naming real lines', async () => {
    // The seed's 60 come first; the tests' own follow.
    const seeded = (await db().select().from(notices).orderBy(notices.id)).slice(0, 60);
    const rich = seeded.filter((r) => r.content.startsWith('<'));
    expect(rich.length).toBeGreaterThanOrEqual(50);
    for (const r of rich.slice(0, 60)) expect(sanitizeRichText(r.content)).toBe(r.content);
    expect(rich.some((r) => /<h3>|<ul>|<ol>/.test(r.content))).toBe(true);
    const lineNotices = rich.filter((r) => r.type === 3);
    for (const r of lineNotices) expect(r.lineCodes.length).toBe(1);
  });
});
