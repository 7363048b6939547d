import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account } from '../../src/shared/api';
import * as help from '../../src/shared/api/help';
import * as t from '../../src/server/db/schema';
import { helpCatalogs, helpDocVotes, helpDocs } from '../../src/server/modules/version/schema';
import { exportThroughTask } from '../support/export-task';
import { type TestServer, startTestServer } from '../support/test-server';

/** 帮助中心 against the real server: the catalogue tree, docs and their flow, scope, sanitising, ★ 页内帮助, votes. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
/** An account that sees neither 版本管理 nor 帮助中心: the `?` sheet still reads its page's doc. */
let outsider: string;
let xuhui: number;
let huangpu: number;
/** The seeded catalogues by name. */
const cat: Record<string, number> = {};

const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  for (const c of await db().select().from(helpCatalogs)) cat[c.name] = c.id;
  const [group] = await db().insert(t.roleGroups).values({ name: '只看公告组', description: '只看公告', createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
  await db().insert(t.roleGroupItems).values(['noticeReport', 'noticeReport.notice'].map((itemId) => ({ groupId: group!.id, itemId })));
  const added = await s.call(account.userAdd, { token: admin, body: { login: 'helpoutsider', firstName: '公告读者', password: 'Help@2026xx', authority: 'ROLE_USER', groupId: group!.id, districtId: xuhui } });
  expect(added.body.code).toBe(1);
  outsider = await s.login('helpoutsider', 'Help@2026xx');
});
afterAll(() => s.close());

const auditRows = (type: string, target?: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), target ? eq(t.sysLog.target, target) : undefined));
const storedDoc = async (id: number) => (await db().select().from(helpDocs).where(eq(helpDocs.id, id)))[0];
const saveCatalog = (token: string, body: Record<string, unknown>) => s.call(help.helpCatalogSave, { token, body });
const saveDoc = (token: string, body: Record<string, unknown>, district?: number) => s.call(help.helpDocSave, { token, body, district });
const move = (token: string, body: Record<string, unknown>) => s.call(help.helpDocUpdateStatus, { token, body });
const docs = (token: string, query: Record<string, string | number> = {}, district?: number) => s.call(help.helpDocPage, { token, query: { size: 1000, ...query }, district });

let made = 0;
/** A staff doc of the test's own, through the API (manager: 徐汇区). */
async function makeDoc(more: Record<string, unknown> = {}, token = manager) {
  const res = await saveDoc(token, { catalogId: cat['审核与客服'], title: `测试文档${++made}`, content: '<p>步骤</p>', ...more });
  expect(res.body.code, res.body.msg).toBe(1);
  return res.body.data;
}

describe('the seeded help centre (small profile)', () => {
  it('8 catalogues, depth first with their levels; a few docs for riders and staff, staff ones bound to console pages', async () => {
    const tree = (await s.call(help.helpCatalogTree, { token: admin })).body.data;
    expect(tree.map((c) => [c.name, c.level])).toEqual([
      ['乘车码', 1],
      ['开通与使用', 2],
      ['扣费与退款', 2],
      ['公交卡与办卡', 1],
      ['充值与优惠', 1],
      ['控制台使用', 1],
      ['审核与客服', 2],
      ['运营配置', 2],
    ]);
    const all = (await docs(admin)).body.data.content;
    expect(all.length).toBe(5);
    expect(all.filter((d) => d.audience === 2).every((d) => d.pageKey !== null)).toBe(true);
    // The tree counts docs per catalogue as the reader sees them.
    expect(tree.reduce((n, c) => n + c.docCount, 0)).toBe(5);
    // Only riders' catalogues when asked for riders.
    expect((await s.call(help.helpCatalogTree, { token: viewer, query: { audience: '1' } })).body.data.every((c) => c.audience === 1)).toBe(true);
  });
});

describe('catalogues', () => {
  it('the super user adds three levels, no fourth; one name per parent; a child for its parent’s readers; audited', async () => {
    const top = await saveCatalog(admin, { name: '测试顶级', audience: 2 });
    expect(top.body.data).toMatchObject({ level: 1, parentId: null, audience: 2 });
    const mid = await saveCatalog(admin, { name: '测试二级', audience: 2, parentId: top.body.data.id });
    const low = await saveCatalog(admin, { name: '测试三级', audience: 2, parentId: mid.body.data.id });
    expect(low.body.data).toMatchObject({ level: 3 });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '第四级', audience: 2, parentId: low.body.data.id }, '目录最多三级', 'parentId'],
      [{ name: '测试二级', audience: 2, parentId: top.body.data.id }, '同一目录下已有同名目录', 'name'],
      [{ name: '乘客子目录', audience: 1, parentId: top.body.data.id }, '子目录的阅读对象须与上级目录一致（员工）', 'audience'],
      [{ name: '上级不存在', audience: 2, parentId: 99_999_999 }, '目录不存在', ''],
      // Moving 二级 (with 三级 below it) under 三级: its own subtree.
      [{ id: mid.body.data.id, name: '测试二级', audience: 2, parentId: low.body.data.id }, '不能移到自己或自己的下级目录之下', 'parentId'],
    ];
    for (const [body, msg, field] of cases) {
      const res = await saveCatalog(admin, body);
      expect(res.body.code, msg).not.toBe(1);
      expect(res.body.msg).toBe(msg);
      if (field) expect(res.body.data).toMatchObject({ errors: [{ field }] });
    }
    // A second top with a child: moving it under 二级 would make a fourth level.
    const other = await saveCatalog(admin, { name: '另一个顶级', audience: 2 });
    await saveCatalog(admin, { name: '另一个子级', audience: 2, parentId: other.body.data.id });
    const deep = await saveCatalog(admin, { id: other.body.data.id, name: '另一个顶级', audience: 2, parentId: mid.body.data.id, rowVersion: other.body.data.rowVersion });
    expect(deep.body.msg).toBe('目录最多三级');
    // Moved under the top instead: it and its child take levels 2 and 3.
    const moved = await saveCatalog(admin, { id: other.body.data.id, name: '另一个顶级', audience: 2, parentId: top.body.data.id, rowVersion: other.body.data.rowVersion });
    expect(moved.body.data).toMatchObject({ level: 2, parentId: top.body.data.id, rowVersion: other.body.data.rowVersion + 1 });
    expect((await db().select().from(helpCatalogs).where(eq(helpCatalogs.name, '另一个子级')))[0]).toMatchObject({ level: 3 });
    expect(await auditRows('HELP_CATALOG_SAVE', `help-catalog/${top.body.data.id}`)).toHaveLength(1);
  });

  it('refuses a district manager, the read-only, malformed and too long input, and a stale version', async () => {
    const top = await saveCatalog(admin, { name: '版本测试', audience: 1 });
    const cases: Array<[string, string, Record<string, unknown>, number, RegExp]> = [
      ['a district manager (catalogues are the city’s)', manager, { name: '区管目录', audience: 1 }, 403, /帮助目录全市共用，只有超级管理员可以修改/],
      ['the read-only group', viewer, { name: '只读目录', audience: 1 }, 403, /./],
      ['an agent', agent, { name: '客服目录', audience: 1 }, 403, /./],
      ['no name', admin, { audience: 1 }, 400, /目录名称不能为空/],
      ['name over 20', admin, { name: '长'.repeat(21), audience: 1 }, 400, /目录名称不能超过20个字符/],
      ['audience 3', admin, { name: 'x', audience: 3 }, 400, /阅读对象/],
      ['parent as text', admin, { name: 'x', audience: 1, parentId: 'a' }, 400, /上级目录/],
      ['sort below 0', admin, { name: 'x', audience: 1, sort: -1 }, 400, /排序/],
      ['stale', admin, { id: top.body.data.id, name: '版本测试2', audience: 1, rowVersion: top.body.data.rowVersion + 5 }, 200, /已被他人修改/],
    ];
    for (const [what, token, body, status, msg] of cases) {
      const res = await saveCatalog(token, body);
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).not.toBe(1);
      expect(res.body.msg, what).toMatch(msg);
    }
    expect((await db().select().from(helpCatalogs).where(eq(helpCatalogs.id, top.body.data.id)))[0]?.name).toBe('版本测试');
  });

  it('删除目录: not while it holds docs or catalogues; an empty one goes with its audit row', async () => {
    const top = await saveCatalog(admin, { name: '删除测试', audience: 2 });
    const child = await saveCatalog(admin, { name: '删除测试子', audience: 2, parentId: top.body.data.id });
    const doc = await makeDoc({ catalogId: child.body.data.id }, admin);
    const del = (token: string, id: number) => s.call(help.helpCatalogDelete, { token, query: { id } });
    expect((await del(admin, top.body.data.id)).body.msg).toBe('该目录下还有子目录，不能删除');
    expect((await del(admin, child.body.data.id)).body.msg).toBe('该目录下还有文档，不能删除');
    expect((await del(manager, child.body.data.id)).status).toBe(403);
    expect((await s.call(help.helpCatalogDelete, { token: admin, query: { id: 'x' } })).status).toBe(400);
    expect((await s.call(help.helpDocDelete, { token: admin, query: { id: doc.id } })).body.code).toBe(1);
    expect((await del(admin, child.body.data.id)).body).toMatchObject({ code: 1, data: { id: child.body.data.id } });
    expect(await auditRows('HELP_CATALOG_DELETE', `help-catalog/${child.body.data.id}`)).toHaveLength(1);
    expect((await del(admin, child.body.data.id)).body.msg).toBe('目录不存在');
  });
});

/** Markup that would run script if a page put it in as HTML. */
const XSS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=2">',
  '<a href="javascript:window.__xss=3">点我</a>',
  '<a href="JaVaScRiPt&colon;window.__xss=4">点我</a>',
  '<svg onload="window.__xss=5"><circle r="1"/></svg>',
  '<style>*{background:url(javascript:window.__xss=6)}</style>',
  '<iframe srcdoc="<script>window.__xss=7</script>"></iframe>',
  '<h2 onmouseover="window.__xss=8" style="color:red">标题</h2>',
  '<math><mi xlink:href="javascript:window.__xss=9">x</mi></math>',
];
const RUNS = /<script|<svg|<style|<iframe|<img|<math|<object|<embed|\son\w+=|javascript:|style=/i;

describe('docs', () => {
  it('a district manager writes a staff doc bound to a page: sanitised, in the district, audited; edited in place', async () => {
    const res = await saveDoc(manager, { catalogId: cat['运营配置'], title: '公告管理：草稿与发布', content: '<h3>步骤</h3><ol><li>新建</li><li>发布</li></ol><p><a href="https://example.gov.cn/x">规范</a></p>', pageKey: 'noticeReport/notice' });
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({ districtId: xuhui, audience: 2, status: 0, pageKey: 'noticeReport/notice', catalogName: '运营配置', manageable: true, updatedByName: '徐汇区管理员' });
    expect(res.body.data.content).toBe('<h3>步骤</h3><ol><li>新建</li><li>发布</li></ol><p><a href="https://example.gov.cn/x">规范</a></p>');
    expect((await storedDoc(res.body.data.id))?.contentText).toBe('步骤 新建 发布 规范');
    expect(await auditRows('HELP_DOC_SAVE', `help-doc/${res.body.data.id}`)).toMatchObject([{ operatorLogin: 'manager', targetDistrictId: xuhui }]);
    const edited = await saveDoc(manager, { id: res.body.data.id, catalogId: cat['运营配置'], title: '公告管理：草稿、定时与发布', content: '<p>改过</p>', pageKey: null, rowVersion: res.body.data.rowVersion });
    expect(edited.body.data).toMatchObject({ title: '公告管理：草稿、定时与发布', content: '<p>改过</p>', pageKey: null, rowVersion: res.body.data.rowVersion + 1 });
    const stale = await saveDoc(manager, { id: res.body.data.id, catalogId: cat['运营配置'], title: 'x', content: '<p>x</p>', rowVersion: res.body.data.rowVersion });
    expect(stale.body.msg).toMatch(/已被他人修改/);
  });

  it('stored-XSS payloads in every text field: content stored and answered inert, title kept as text, pageKey refused', async () => {
    for (const payload of XSS) {
      const res = await saveDoc(manager, { catalogId: cat['审核与客服'], title: payload.slice(0, 50), content: `<p>正文</p>${payload}` });
      expect(res.body.code, payload).toBe(1);
      const row = await storedDoc(res.body.data.id);
      for (const text of [row!.content, res.body.data.content, (await s.call(help.helpDocById, { token: manager, query: { id: res.body.data.id } })).body.data.content]) {
        expect(text, payload).not.toMatch(RUNS);
        expect(text).toContain('<p>正文</p>');
      }
      expect(row!.title).toBe(payload.slice(0, 50));
      expect(row!.contentText).not.toMatch(/<|>/);
      const bound = await saveDoc(manager, { catalogId: cat['审核与客服'], title: `绑定${payload.length}`, content: '<p>x</p>', pageKey: payload });
      expect(bound.status, payload).toBe(400);
      expect(bound.body.msg).toMatch(/绑定页面/);
    }
    // The `?` sheet answers the same sanitised text.
    const doc = await makeDoc({ content: `<p>页内</p>${XSS.join('')}`, pageKey: 'busUser/yc-user' });
    await move(manager, { id: doc.id, fromStatus: 0, toStatus: 1 });
    const sheet = (await s.call(help.helpDocByPage, { token: outsider, query: { pageKey: 'busUser/yc-user' } })).body.data;
    expect(sheet.find((d) => d.id === doc.id)?.content).not.toMatch(RUNS);
  });

  it('refusals: empty after sanitising, duplicate title, unknown page, a rider doc bound, malformed, too long, missing', async () => {
    const first = await makeDoc({ title: '重名文档' });
    const count = async () => (await db().select({ id: helpDocs.id }).from(helpDocs)).length;
    const before = await count();
    const ok = { catalogId: cat['审核与客服'], title: '新文档', content: '<p>x</p>' };
    const cases: Array<[string, Record<string, unknown>, number, string | RegExp, string?]> = [
      ['markup only', { ...ok, content: '<p><br></p><p>&nbsp;</p>' }, 200, '文档内容不能为空', 'content'],
      ['script only', { ...ok, content: '<script>alert(1)</script>' }, 200, '文档内容不能为空', 'content'],
      ['same title in the catalogue', { ...ok, title: '重名文档' }, 200, '同一目录下已有同名文档', 'title'],
      ['a page the console has not', { ...ok, pageKey: 'nowhere/page' }, 200, '控制台没有页面「nowhere/page」', 'pageKey'],
      ['a rider doc bound to a page', { ...ok, catalogId: cat['公交卡与办卡'], pageKey: 'noticeReport/notice' }, 200, '只有员工文档可以绑定页面', 'pageKey'],
      ['a catalogue that is not there', { ...ok, catalogId: 99_999_999 }, 200, '目录不存在', 'catalogId'],
      ['no title', { ...ok, title: '' }, 400, /标题不能为空/],
      ['title over 50', { ...ok, title: '长'.repeat(51) }, 400, /标题不能超过50个字符/],
      ['content over 50,000', { ...ok, content: 'x'.repeat(50_001) }, 400, /文档内容不能超过50000个字符/],
      ['no content', { catalogId: ok.catalogId, title: 'x' }, 400, /文档内容不能为空/],
      ['no catalogue', { title: 'x', content: '<p>x</p>' }, 400, /目录/],
      ['malformed page', { ...ok, pageKey: '/notice' }, 400, /绑定页面应为 模块\/页面/],
      ['page over 80', { ...ok, pageKey: `a/${'b'.repeat(80)}` }, 400, /绑定页面不能超过80个字符/],
    ];
    for (const [what, body, status, msg, field] of cases) {
      const res = await saveDoc(manager, body);
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).not.toBe(1);
      expect(res.body.msg, what).toMatch(msg);
      if (field) expect(res.body.data, what).toMatchObject({ errors: [{ field }] });
    }
    expect(await count()).toBe(before);
    // Another area may word a doc of the same title.
    expect((await saveDoc(admin, { ...ok, title: first.title }, huangpu)).body.code).toBe(1);
  });

  it('wrong role, another district and the city-wide set are refused; the super user writes city-wide', async () => {
    const foreign = await makeDoc({}, admin);
    const huangpuDoc = (await saveDoc(admin, { catalogId: cat['审核与客服'], title: '黄浦文档', content: '<p>x</p>' }, huangpu)).body.data;
    const mine = await makeDoc();
    expect(foreign.districtId).toBeNull();
    const body = (id: number) => ({ id, catalogId: cat['审核与客服'], title: '改', content: '<p>改</p>' });
    const cases: Array<[string, string, Record<string, unknown>, number, RegExp]> = [
      ['city-wide by a district manager', manager, body(foreign.id), 403, /全市帮助文档只有超级管理员可以修改/],
      ['another district', manager, body(huangpuDoc.id), 403, /./],
      ['the read-only group', viewer, body(mine.id), 403, /./],
      ['an agent', agent, body(mine.id), 403, /./],
      ['a new doc by an outsider', outsider, { catalogId: cat['审核与客服'], title: 'x', content: '<p>x</p>' }, 403, /./],
    ];
    for (const [what, token, b, status, msg] of cases) {
      const res = await saveDoc(token, b);
      expect(res.status, what).toBe(status);
      expect(res.body.msg, what).toMatch(msg);
    }
    expect((await storedDoc(foreign.id))?.title).toBe(foreign.title);
    // The manager reads the city's docs and the district's, not 黄浦区's.
    const seen = (await docs(manager)).body.data.content.map((d) => d.id);
    expect(seen).toContain(foreign.id);
    expect(seen).not.toContain(huangpuDoc.id);
    expect((await s.call(help.helpDocById, { token: manager, query: { id: huangpuDoc.id } })).body.msg).toBe('文档不存在');
    // An administrator on 全部区域 must name the area: only the super user writes city-wide.
    expect((await saveDoc(admin, { catalogId: cat['审核与客服'], title: '全市文档', content: '<p>x</p>', districtId: null })).body.data).toMatchObject({ districtId: null, manageable: true });
  });

  it('0 → 1 → 2 → 1 and delete 0/2: the flow’s refusals, stale moves and who may', async () => {
    const doc = await makeDoc();
    const res = (await move(manager, { id: doc.id, fromStatus: 0, toStatus: 1 })).body;
    expect(res.data).toMatchObject({ status: 1 });
    expect(await auditRows('HELP_DOC_PUBLISH', `help-doc/${doc.id}`)).toHaveLength(1);
    const refusals: Array<[string, string, Record<string, unknown>, number, RegExp]> = [
      ['stale fromStatus', manager, { id: doc.id, fromStatus: 0, toStatus: 1 }, 200, /已被他人处理，请刷新后查看/],
      ['1 → 0 is no move', manager, { id: doc.id, fromStatus: 1, toStatus: 0 }, 200, /不能从「已发布」改为「草稿」/],
      ['an agent', agent, { id: doc.id, fromStatus: 1, toStatus: 2 }, 403, /./],
      ['status 5', manager, { id: doc.id, fromStatus: 1, toStatus: 5 }, 400, /文档状态应为 0–2/],
      ['no id', manager, { fromStatus: 1, toStatus: 2 }, 400, /文档ID/],
    ];
    for (const [what, token, body, status, msg] of refusals) {
      const r = await move(token, body);
      expect(r.status, what).toBe(status);
      expect(r.body.code, what).not.toBe(1);
      expect(r.body.msg, what).toMatch(msg);
    }
    expect((await s.call(help.helpDocDelete, { token: manager, query: { id: doc.id } })).body.msg).toBe('已发布的文档请先下线再删除');
    expect((await move(manager, { id: doc.id, fromStatus: 1, toStatus: 2 })).body.data).toMatchObject({ status: 2 });
    expect(await auditRows('HELP_DOC_WITHDRAW', `help-doc/${doc.id}`)).toHaveLength(1);
    expect((await move(manager, { id: doc.id, fromStatus: 2, toStatus: 1 })).body.data).toMatchObject({ status: 1 });
    expect((await move(manager, { id: doc.id, fromStatus: 1, toStatus: 2 })).body.data).toMatchObject({ status: 2 });
    expect((await s.call(help.helpDocDelete, { token: agent, query: { id: doc.id } })).status).toBe(403);
    expect((await s.call(help.helpDocDelete, { token: manager, query: { id: doc.id } })).body).toMatchObject({ code: 1, data: { id: doc.id } });
    expect(await storedDoc(doc.id)).toBeUndefined();
    expect(await auditRows('HELP_DOC_DELETE', `help-doc/${doc.id}`)).toHaveLength(1);
    const draft = await makeDoc();
    expect((await s.call(help.helpDocDelete, { token: manager, query: { id: draft.id } })).body.code).toBe(1);
  });

  it('the list filters by catalogue (its subtree), keyword in title or text, audience, status and page; refuses malformed filters', async () => {
    const doc = await makeDoc({ title: '筛选文档', content: '<p>独一无二的关键词甲乙丙</p>', pageKey: 'order/order-list' });
    const ids = async (query: Record<string, string | number>) => (await docs(manager, query)).body.data.content.map((d) => d.id);
    expect(await ids({ keyword: '甲乙丙' })).toEqual([doc.id]);
    expect(await ids({ keyword: '筛选文档' })).toEqual([doc.id]);
    // The top catalogue holds what its children hold.
    expect(await ids({ catalogId: cat['控制台使用']!, keyword: '甲乙丙' })).toEqual([doc.id]);
    expect(await ids({ catalogId: cat['乘车码']!, keyword: '甲乙丙' })).toEqual([]);
    expect(await ids({ audience: 2, status: 0, pageKey: 'order/order-list' })).toContain(doc.id);
    expect(await ids({ audience: 1, keyword: '甲乙丙' })).toEqual([]);
    for (const [query, msg] of [
      [{ status: '3' }, /文档状态/],
      [{ audience: 'x' }, /阅读对象/],
      [{ keyword: '长'.repeat(51) }, /关键词不能超过50个字符/],
      [{ sort: 'title,asc' }, /排序参数/],
      [{ pageKey: 'x' }, /绑定页面/],
    ] as const) {
      const res = await docs(manager, query);
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(msg);
    }
    expect((await docs(outsider)).status).toBe(403);
  });
});

describe('the docs list’s summary line and export', () => {
  it('the summary counts the filtered docs by status with their views and votes; 导出 Excel is a 下载中心 task of the same rows (no text), audited; refusals', async () => {
    const a = await makeDoc({ title: '统计文档甲', content: '<p>统计专用正文丁戊</p>' });
    const b = await makeDoc({ title: '统计文档乙', content: '<p>统计专用正文丁戊</p>' });
    expect((await move(manager, { id: b.id, fromStatus: 0, toStatus: 1 })).body.code).toBe(1);
    await s.call(help.helpDocRate, { token: agent, body: { id: b.id, helpful: true } });
    const total = (await s.call(help.helpDocTotal, { token: manager, query: { keyword: '丁戊' } })).body.data;
    expect(total).toEqual({ total: 2, byStatus: { draft: 1, published: 1, withdrawn: 0 }, views: 0, helpful: 1, unhelpful: 0 });
    const { sheet } = await exportThroughTask(s, help.helpDocExport, manager, { keyword: '丁戊', status: 0 });
    const head = sheet.rows[0]!;
    expect(head).toEqual(expect.arrayContaining(['编号', '目录', '标题', '阅读对象', '状态', '阅读数', '有用', '没用']));
    expect(sheet.rows.slice(1).map((r) => Number(r[head.indexOf('编号')]))).toEqual([a.id]);
    expect(JSON.stringify(sheet.rows)).not.toContain('统计专用正文');
    expect(await auditRows('HELP_DOC_EXPORT')).not.toHaveLength(0);
    expect((await s.call(help.helpDocTotal, { token: manager, query: { status: 3 } })).status).toBe(400);
    expect((await s.call(help.helpDocExport, { token: manager, query: { audience: 'x' } })).status).toBe(400);
    expect((await s.call(help.helpDocExport, { token: outsider })).status).toBe(403);
  });
});

describe('★ 页内帮助 and votes', () => {
  it('byPage: any signed-in account reads the page’s published staff docs in its area and the city’s, the area’s first', async () => {
    const city = await makeDoc({ title: '乘车统计（全市）', pageKey: 'order/order-total' }, admin);
    const own = await makeDoc({ title: '乘车统计（徐汇）', pageKey: 'order/order-total' });
    const draft = await makeDoc({ title: '乘车统计草稿', pageKey: 'order/order-total' });
    const huangpuDoc = (await saveDoc(admin, { catalogId: cat['审核与客服'], title: '乘车统计（黄浦）', content: '<p>x</p>', pageKey: 'order/order-total' }, huangpu)).body.data;
    for (const d of [city, own, huangpuDoc]) expect((await move(admin, { id: d.id, fromStatus: 0, toStatus: 1 })).body.code).toBe(1);
    const sheet = await s.call(help.helpDocByPage, { token: outsider, query: { pageKey: 'order/order-total' } });
    expect(sheet.status).toBe(200);
    expect(sheet.body.data.map((d) => d.title)).toEqual(['乘车统计（徐汇）', '乘车统计（全市）']);
    expect(sheet.body.data[0]).toMatchObject({ content: '<p>步骤</p>', helpful: 0, unhelpful: 0, myVote: null });
    expect(sheet.body.data.map((d) => d.id)).not.toContain(draft.id);
    expect((await s.call(help.helpDocByPage, { token: outsider, query: { pageKey: 'nowhere/x' } })).body.data).toEqual([]);
    expect((await s.call(help.helpDocByPage, { token: outsider, query: {} })).status).toBe(400);
    expect((await s.call(help.helpDocByPage, { token: outsider, query: { pageKey: '<script>' } })).status).toBe(400);
    expect((await s.call(help.helpDocByPage, { query: { pageKey: 'order/order-total' } })).status).toBe(401);
  });

  it('有用 / 没用: one vote per account, changed or taken back; views count; a draft or another area’s doc is refused', async () => {
    const doc = await makeDoc({ pageKey: 'order/order-list' });
    const rate = (token: string, helpful: boolean | null, id = doc.id) => s.call(help.helpDocRate, { token, body: { id, helpful } });
    expect((await rate(outsider, true)).body.msg).toBe('文档不存在或未发布');
    await move(manager, { id: doc.id, fromStatus: 0, toStatus: 1 });
    expect((await rate(outsider, true)).body.data).toEqual({ id: doc.id, helpful: 1, unhelpful: 0, myVote: true });
    expect((await rate(agent, false)).body.data).toEqual({ id: doc.id, helpful: 1, unhelpful: 1, myVote: false });
    expect((await rate(outsider, false)).body.data).toEqual({ id: doc.id, helpful: 0, unhelpful: 2, myVote: false });
    expect((await rate(outsider, null)).body.data).toEqual({ id: doc.id, helpful: 0, unhelpful: 1, myVote: null });
    expect(await db().select().from(helpDocVotes).where(eq(helpDocVotes.docId, doc.id))).toHaveLength(1);
    expect((await s.call(help.helpDocRate, { token: outsider, body: { id: doc.id, helpful: 'yes' } })).status).toBe(400);
    expect((await s.call(help.helpDocRate, { body: { id: doc.id, helpful: true } })).status).toBe(401);
    const huangpuDoc = (await saveDoc(admin, { catalogId: cat['审核与客服'], title: '黄浦投票', content: '<p>x</p>' }, huangpu)).body.data;
    await move(admin, { id: huangpuDoc.id, fromStatus: 0, toStatus: 1 });
    expect((await rate(outsider, true, huangpuDoc.id)).body.msg).toBe('文档不存在或未发布');
    const view = async () => (await s.call(help.helpDocView, { token: outsider, body: { id: doc.id } })).body.data;
    expect(await view()).toEqual({ id: doc.id, views: 1 });
    expect(await view()).toEqual({ id: doc.id, views: 2 });
    expect((await s.call(help.helpDocView, { token: outsider, body: { id: huangpuDoc.id } })).body.msg).toBe('文档不存在或未发布');
    // The list shows the author the counts.
    expect((await docs(manager, { keyword: doc.title })).body.data.content[0]).toMatchObject({ views: 2, helpful: 0, unhelpful: 1 });
  });
});
