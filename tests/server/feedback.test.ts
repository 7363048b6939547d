import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fb from '../../src/shared/api/feedback';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { placeholderImage } from '../../src/server/lib/sealed-files';
import { type NewFeedback, submitFeedback } from '../../src/server/modules/notice-report/feedback-service';
import { feedback } from '../../src/server/modules/notice-report/schema';
import { exportThroughTask } from '../support/export-task';
import { DAY, HOUR, MINUTE } from '../support/clock';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 意见反馈 against the real server: the seeded queue, every endpoint and refusal, scope, roles, audit, the rider side, ★ rides and clusters. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;
let riderXh: number;
let riderHp: number;
let cardXh: string;

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
  riderXh = (await db().select().from(t.riders).where(eq(t.riders.districtId, xuhui)).limit(1))[0]!.id;
  riderHp = (await db().select().from(t.riders).where(eq(t.riders.districtId, huangpu)).limit(1))[0]!.id;
  // The rider's own card, for the ride they complain about.
  const now = s.clock.now();
  const [card] = await db()
    .insert(t.busCards)
    .values({ cardNo: `3101990000${String(now.getTime()).slice(-6)}`, districtId: xuhui, category: 1, riderId: riderXh, issuedAt: now, updatedAt: now })
    .returning();
  cardXh = card!.cardNo;
});
afterAll(() => s.close());

const audits = (type: string, id: number) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, `feedback/${id}`)));
const stored = async (id: number) => (await db().select().from(feedback).where(eq(feedback.id, id)))[0]!;
const make = (over: Partial<NewFeedback> = {}) => submitFeedback(deps(), { riderId: riderXh, category: 2, content: '司机急刹车，车上老人差点摔倒', lineCode: null, ...over });
const page = (token: string, query: Record<string, string | number | boolean> = {}, district?: number) => s.call(fb.feedbackPage, { token, query: { size: 1000, ...query }, district });
const reply = (token: string, body: Record<string, unknown>) => s.call(fb.feedbackReply, { token, body });
const move = (token: string, body: Record<string, unknown>) => s.call(fb.feedbackUpdateStatus, { token, body });
const assign = (token: string, body: Record<string, unknown>) => s.call(fb.feedbackAssign, { token, body });

describe('the seeded queue (small profile)', () => {
  it('a handful in each status, one overdue, a cluster on one bus; the summary agrees with the list', async () => {
    const all = (await page(admin)).body.data.content;
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(all.length).toBeLessThanOrEqual(12);
    for (const code of [0, 1, 2, 3] as const) expect(all.some((f) => f.status === code), `status ${code}`).toBe(true);
    expect(all.filter((f) => f.overdue)).toHaveLength(1);
    expect(all.some((f) => f.clusterSize >= 2)).toBe(true);
    expect(all.every((f) => /^1\d{2}\*{4}\d{4}$/.test(f.riderPhone))).toBe(true);
    const sum = (await s.call(fb.feedbackSummary, { token: admin })).body.data;
    expect(sum.total).toBe(all.length);
    expect(sum.byStatus).toEqual({ open: all.filter((f) => f.status === 0).length, handling: all.filter((f) => f.status === 3).length, replied: all.filter((f) => f.status === 1).length, declined: all.filter((f) => f.status === 2).length });
    expect(sum.overdue).toBe(1);
    expect(sum.medianReplyHours).toBeGreaterThan(0);
    const replied = all.filter((f) => f.status === 1);
    expect(replied.every((f) => f.reply && f.repliedAt && f.handlerName)).toBe(true);
    expect(all.filter((f) => f.status === 2).every((f) => (f.closeReason ?? '').length >= 4)).toBe(true);
    // Images are sealed in the frame table under the feedback kind.
    const files = await db().select().from(t.sealedFiles).where(eq(t.sealedFiles.kind, 'feedback'));
    expect(files.length).toBe(all.reduce((n, f) => n + f.imageCount, 0));
    expect(files.every((f) => f.data && !f.data.toString('utf8').includes('<svg'))).toBe(true);
  });
});

describe('submitFeedback (the rider side) and ★ 反馈关联乘车', () => {
  it('matches the rider\'s own rides ±30 min, fills line and bus from the nearest, due 3 working days later', async () => {
    const at = new Date(s.clock.now().getTime() - 20 * MINUTE);
    await db().insert(t.rideRecords).values([
      { rideAt: at, districtId: xuhui, lineCode: '946', lineName: '946路', busName: '沪B-94601', direction: 0, stationName: '徐家汇', cardNo: cardXh, cardCategory: 1, ticketType: 1, amount: 200, payStatus: 1, rechargeStatus: 1, orderNo: `RFB${at.getTime()}`, payChannel: '乘车码', paidAt: at },
      // Two hours earlier: outside the window.
      { rideAt: new Date(at.getTime() - 2 * HOUR), districtId: xuhui, lineCode: '15', lineName: '15路', busName: '沪B-01501', direction: 0, stationName: null, cardNo: cardXh, cardCategory: 1, ticketType: 1, amount: 200, payStatus: 1, rechargeStatus: 1, orderNo: `RFB${at.getTime()}x`, payChannel: '乘车码', paidAt: at },
    ]);
    const id = await make({ occurredAt: new Date(at.getTime() + 5 * MINUTE), contactPhone: '13912345678', images: [{ label: '车内照片', ...placeholderImage('车内', 200, 100) }] });
    const row = await stored(id);
    expect(row).toMatchObject({ districtId: xuhui, lineCode: '946', lineName: '946路', busNo: '沪B-94601', status: 0, imageCount: 1 });
    expect(row.linkedRideIds).toHaveLength(1);
    expect(row.contactPhoneEnc).not.toContain('13912345678');
    expect(row.dueAt.getTime()).toBe(fb.feedbackDueAt(s.clock.now()).getTime());
    const detail = (await s.call(fb.feedbackById, { token: agent, query: { id } })).body.data;
    expect(detail.rides).toHaveLength(1);
    expect(detail.rides[0]).toMatchObject({ lineCode: '946', busName: '沪B-94601', orderNo: `RFB${at.getTime()}`, cardNo: cardXh });
    expect(detail.images).toHaveLength(1);
    expect(detail.images[0]).toMatchObject({ label: '车内照片', mime: 'image/svg+xml' });
    expect(detail.contactPhone).toBe('139****5678');
  });

  it('refuses what the rider\'s form would: empty, over 500 characters, more than 3 images, a bad phone', async () => {
    const before = (await db().select().from(feedback)).length;
    await expect(make({ content: '   ' })).rejects.toThrow('请填写反馈内容');
    await expect(make({ content: '长'.repeat(501) })).rejects.toThrow('反馈内容不能超过500个字');
    const img = placeholderImage('x', 10, 10);
    await expect(make({ images: [img, img, img, img] })).rejects.toThrow('最多上传3张图片');
    await expect(make({ contactPhone: '12345' })).rejects.toThrow('手机号应为11位数字');
    expect(await db().select().from(feedback)).toHaveLength(before);
    expect(await make({ content: '长'.repeat(500) })).toBeGreaterThan(0);
  });

  it('dueAt: 3 working days, weekends skipped (a Friday item is due Wednesday; a Saturday one Thursday 00:00)', () => {
    // 2026-12-04 is a Friday; times in Shanghai (+08:00).
    expect(fb.feedbackDueAt(new Date('2026-12-04T15:00:00+08:00')).toISOString()).toBe(new Date('2026-12-09T15:00:00+08:00').toISOString());
    expect(fb.feedbackDueAt(new Date('2026-12-05T10:00:00+08:00')).toISOString()).toBe(new Date('2026-12-10T00:00:00+08:00').toISOString());
    expect(fb.feedbackDueAt(new Date('2026-12-07T09:30:00+08:00')).toISOString()).toBe(new Date('2026-12-10T09:30:00+08:00').toISOString());
  });
});

describe('意见反馈 list: filters, scope, roles, malformed input', () => {
  it('filters by status, category, line, overdue, mine and dates; sorts by due time', async () => {
    const id = await make({ category: 4, lineCode: '999' });
    const byLine = (await page(agent, { lineCode: '999' })).body.data.content;
    expect(byLine.map((f) => f.id)).toContain(id);
    expect(byLine.every((f) => f.lineCode === '999')).toBe(true);
    const open = (await page(agent, { status: 0, sort: 'dueAt,asc' })).body.data.content;
    expect(open.every((f) => f.status === 0)).toBe(true);
    expect(open.map((f) => f.dueAt)).toEqual([...open.map((f) => f.dueAt)].sort());
    expect((await page(agent, { category: 4 })).body.data.content.every((f) => f.category === 4)).toBe(true);
    const overdue = (await page(admin, { overdue: true })).body.data.content;
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.every((f) => f.overdue)).toBe(true);
    expect((await page(admin, { overdue: false })).body.data.content.every((f) => !f.overdue)).toBe(true);
    const later = new Date(s.clock.now().getTime() + DAY).toISOString();
    expect((await page(agent, { startTime: later })).body.data.content).toHaveLength(0);
    await assign(agent, { id });
    const mine = (await page(agent, { mine: true })).body.data.content;
    expect(mine.map((f) => f.id)).toContain(id);
    expect(mine.every((f) => f.handlerName === '客服小李')).toBe(true);
  });

  it('a district reads its own only; a foreign item is refused; viewer has no menu', async () => {
    const hp = await make({ riderId: riderHp });
    expect((await page(manager)).body.data.content.every((f) => f.districtId === xuhui)).toBe(true);
    expect((await s.call(fb.feedbackById, { token: manager, query: { id: hp } })).status).toBe(403);
    expect((await assign(manager, { id: hp })).status).toBe(403);
    expect((await reply(manager, { id: hp, fromStatus: 0, reply: '好的' })).status).toBe(403);
    expect((await move(manager, { id: hp, fromStatus: 0, toStatus: 2, reason: '与公交无关' })).status).toBe(403);
    expect((await s.call(fb.feedbackMaterial, { token: manager, body: { id: hp, reason: '核实乘客身份' } })).status).toBe(403);
    expect((await stored(hp)).status).toBe(0);
    expect((await page(viewer)).status).toBe(403);
    expect((await s.call(fb.feedbackSummary, { token: viewer })).status).toBe(403);
  });

  it('malformed input is refused with a Chinese message', async () => {
    for (const query of [{ status: 9 }, { category: 'x' }, { overdue: 'maybe' }, { startTime: 'yesterday' }, { size: 5000 }, { sort: 'content,asc' }]) {
      const res = await page(admin, query as never);
      expect(res.body.code, JSON.stringify(query)).not.toBe(1);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await s.call(fb.feedbackById, { token: admin, query: { id: 'abc' } })).body.code).not.toBe(1);
    expect((await s.call(fb.feedbackById, { token: admin, query: { id: 99_999_999 } })).body.msg).toBe('反馈不存在');
  });
});

describe('认领, 回复, 不处理, 重新打开', () => {
  it('认领: the handler takes it (0 → 3, one audit row); another is told who holds it; an administrator takes over', async () => {
    const id = await make();
    const res = await assign(agent, { id });
    expect(res.body.data).toMatchObject({ status: 3, handlerName: '客服小李' });
    expect(await audits('FEEDBACK_ASSIGN', id)).toHaveLength(1);
    expect((await assign(agent, { id })).body.data.status).toBe(3);
    expect(await audits('FEEDBACK_ASSIGN', id)).toHaveLength(1);
    const held = await assign(manager, { id });
    expect(held.body.msg).toBe('该反馈正由客服小李处理');
    expect((await stored(id)).handlerId).not.toBeNull();
    const taken = await assign(manager, { id, takeOver: true });
    expect(taken.body.data).toMatchObject({ status: 3, handlerName: '徐汇区管理员' });
    expect(await audits('FEEDBACK_TAKEOVER', id)).toHaveLength(1);
    // Now the agent (no ROLE_ADMIN) cannot take it back, even asking to.
    expect((await reply(agent, { id, fromStatus: 3, reply: '已处理', takeOver: true })).body.msg).toBe('该反馈正由徐汇区管理员处理');
    expect((await assign(viewer, { id })).status).toBe(403);
  });

  it('回复: required and at most 500 characters; answered once; a second reply is 已被处理', async () => {
    const id = await make();
    for (const body of [{ id, fromStatus: 0 }, { id, fromStatus: 0, reply: '   ' }]) expect((await reply(agent, body)).body.msg).toContain('请填写回复内容');
    expect((await reply(agent, { id, fromStatus: 0, reply: '好'.repeat(501) })).body.msg).toContain('回复内容不能超过500个字');
    expect((await reply(agent, { id, fromStatus: 1, reply: '好' })).body.msg).toContain('只能回复未处理或处理中的反馈');
    expect((await reply(agent, { id: 'x', fromStatus: 0, reply: '好' })).body.code).not.toBe(1);
    expect((await reply(viewer, { id, fromStatus: 0, reply: '好' })).status).toBe(403);
    expect((await stored(id)).status).toBe(0);
    const text = '您好，已核实，车队已对驾驶员进行教育，联系电话 13912345678';
    const ok = await reply(agent, { id, fromStatus: 0, reply: text });
    expect(ok.body.data).toMatchObject({ status: 1, handlerName: '客服小李', alsoAnswered: [], skipped: [] });
    expect(ok.body.data.reply).toContain('139****5678');
    const row = await stored(id);
    expect(row).toMatchObject({ status: 1, reply: text });
    expect(row.repliedAt).not.toBeNull();
    const log = await audits('FEEDBACK_REPLY', id);
    expect(log).toHaveLength(1);
    expect(log[0]!.summary).not.toContain('13912345678');
    expect((await reply(manager, { id, fromStatus: 0, reply: '再回复' })).body.msg).toBe('该反馈已被处理，请刷新后查看');
    expect(await audits('FEEDBACK_REPLY', id)).toHaveLength(1);
  });

  it('★ the cluster answered once: the same bus within the hour, each item audited; others skipped and named', async () => {
    const at = new Date(s.clock.now().getTime() - 3 * HOUR);
    const bus = `沪B-C${at.getTime() % 100000}`;
    const a = await make({ lineCode: '56', busNo: bus, occurredAt: at });
    const b = await make({ lineCode: '56', busNo: bus, occurredAt: new Date(at.getTime() + 20 * MINUTE), category: 3 });
    const c = await make({ lineCode: '56', busNo: bus, occurredAt: new Date(at.getTime() - 40 * MINUTE) });
    const far = await make({ lineCode: '56', busNo: bus, occurredAt: new Date(at.getTime() + 3 * HOUR) });
    const taken = await make({ lineCode: '56', busNo: bus, occurredAt: new Date(at.getTime() + 10 * MINUTE) });
    await assign(manager, { id: taken });
    const detail = (await s.call(fb.feedbackById, { token: agent, query: { id: a } })).body.data;
    expect(detail.clusterSize).toBe(4);
    expect(detail.cluster.map((x) => x.id).sort()).toEqual([b, c, taken].sort());
    const res = await reply(agent, { id: a, fromStatus: 0, reply: '您好，该车辆已安排检修，感谢反馈。', clusterIds: [b, c, far, taken] });
    expect(res.body.data.alsoAnswered.sort()).toEqual([b, c].sort());
    expect(res.body.data.skipped).toEqual(expect.arrayContaining([{ id: far, msg: '不属于同车同时段的反馈' }, { id: taken, msg: '该反馈正由徐汇区管理员处理' }]));
    for (const id of [a, b, c]) {
      expect((await stored(id)).status).toBe(1);
      expect(await audits('FEEDBACK_REPLY', id)).toHaveLength(1);
    }
    expect((await stored(far)).status).toBe(0);
    expect((await stored(taken)).status).toBe(3);
  });

  it('不处理: a reason of at least 4 characters; nothing changes without one', async () => {
    const id = await make();
    for (const reason of [undefined, '', '太短了']) {
      const res = await move(agent, { id, fromStatus: 0, toStatus: 2, reason });
      expect(res.body.msg).toBe('请填写不处理原因（至少4个字）');
    }
    expect((await move(agent, { id, fromStatus: 0, toStatus: 2, reason: '长'.repeat(201) })).body.code).not.toBe(1);
    expect((await move(agent, { id, fromStatus: 0, toStatus: 1, reason: '长长长长' })).body.code).not.toBe(1);
    expect((await stored(id)).status).toBe(0);
    expect(await audits('FEEDBACK_DECLINE', id)).toHaveLength(0);
    const ok = await move(agent, { id, fromStatus: 0, toStatus: 2, reason: '与公交服务无关' });
    expect(ok.body.data).toMatchObject({ status: 2, closeReason: '与公交服务无关', handlerName: '客服小李' });
    expect(await audits('FEEDBACK_DECLINE', id)).toHaveLength(1);
    expect((await move(agent, { id, fromStatus: 0, toStatus: 2, reason: '与公交服务无关' })).body.msg).toBe('该反馈已被处理，请刷新后查看');
  });

  it('认领 through update/status (0 → 3) is the same as assign', async () => {
    const id = await make();
    expect((await move(agent, { id, fromStatus: 0, toStatus: 3 })).body.data).toMatchObject({ status: 3, handlerName: '客服小李' });
    expect(await audits('FEEDBACK_ASSIGN', id)).toHaveLength(1);
  });

  it('重新打开: ROLE_ADMIN only; back to 处理中 with a fresh due time, the reply cleared, audited', async () => {
    const id = await make();
    await reply(agent, { id, fromStatus: 0, reply: '已回复' });
    expect((await move(agent, { id, fromStatus: 1, toStatus: 3 })).status).toBe(403);
    expect((await stored(id)).status).toBe(1);
    // Its first due time moved to long ago: reopening gives it a fresh one.
    await db().update(feedback).set({ dueAt: new Date(s.clock.now().getTime() - 5 * DAY) }).where(eq(feedback.id, id));
    const res = await move(manager, { id, fromStatus: 1, toStatus: 3, reason: '乘客再次来电' });
    expect(res.body.data).toMatchObject({ status: 3, reply: null, repliedAt: null, overdue: false });
    expect(Date.parse(res.body.data.dueAt)).toBe(fb.feedbackDueAt(s.clock.now()).getTime());
    expect(await audits('FEEDBACK_REOPEN', id)).toHaveLength(1);
    expect((await move(manager, { id, fromStatus: 1, toStatus: 3 })).body.msg).toBe('该反馈已被处理，请刷新后查看');
  });
});

describe('material (images and the contact phone), summary, export', () => {
  it('opens an image or the phone with a reason: no-store, audited; refused without a reason or to a reader', async () => {
    const id = await make({ contactPhone: '13687654321', images: [{ label: '车票', ...placeholderImage('车票', 120, 80) }] });
    const fileId = (await s.call(fb.feedbackById, { token: agent, query: { id } })).body.data.images[0]!.id;
    expect((await s.call(fb.feedbackMaterial, { token: agent, body: { id, fileId } })).body.msg).toContain('请填写查看原因');
    expect((await s.call(fb.feedbackMaterial, { token: agent, body: { id, fileId, reason: '看看' } })).body.msg).toContain('查看原因至少4个字');
    expect(await audits('FEEDBACK_MATERIAL', id)).toHaveLength(0);
    const img = await s.call(fb.feedbackMaterial, { token: agent, body: { id, fileId, reason: '核实车内情况' } });
    expect(img.headers.get('cache-control')).toBe('no-store');
    expect(img.body.data.image!.dataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(img.body.data.image!.dataUrl.split(',')[1]!, 'base64').toString('utf8')).toContain('车票');
    expect(img.body.data.contactPhone).toBeNull();
    const phone = await s.call(fb.feedbackMaterial, { token: agent, body: { id, reason: '回电核实情况' } });
    expect(phone.body.data.contactPhone).toBe('13687654321');
    const log = await audits('FEEDBACK_MATERIAL', id);
    expect(log).toHaveLength(2);
    expect(JSON.stringify(log)).not.toContain('13687654321');
    // Another record's file id answers nothing.
    const other = await make();
    expect((await s.call(fb.feedbackMaterial, { token: agent, body: { id: other, fileId, reason: '核实车内情况' } })).body.msg).toBe('图片不存在或已清除');
    const reader = await s.call(fb.feedbackMaterial, { token: viewer, body: { id, fileId, reason: '核实车内情况' } });
    expect(reader.status).toBe(403);
  });

  it('the summary follows the filters (not the status); malformed dates are refused', async () => {
    const sum = (await s.call(fb.feedbackSummary, { token: manager, query: { category: 2 } })).body.data;
    const rows = (await page(manager, { category: 2 })).body.data.content;
    expect(sum.total).toBe(rows.length);
    expect((await s.call(fb.feedbackSummary, { token: manager, query: { startTime: 'x' } })).body.code).not.toBe(1);
    const bad = await s.call(fb.feedbackSummary, { token: manager, query: { startTime: '2026-12-05T00:00:00+08:00', endTime: '2026-12-01T00:00:00+08:00' } });
    expect(bad.body.msg).toContain('结束时间不能早于开始时间');
  });

  it('the export is a 下载中心 task of the filtered rows, phones masked, audited', async () => {
    const { sheet } = await exportThroughTask(s, fb.feedbackExport, manager, { status: 1 });
    const rows = (await page(manager, { status: 1 })).body.data.content;
    expect(sheet.sheetName).toBe('意见反馈');
    expect(sheet.rows.length - 1).toBe(rows.length);
    expect(sheet.rows[0]).toContain('乘客手机号');
    expect(sheet.rows.slice(1).every((r) => r[10] === '已处理')).toBe(true);
    const text = JSON.stringify(sheet.rows);
    expect(text).not.toMatch(/1\d{10}/);
    expect((await s.call(fb.feedbackExport, { token: viewer, query: {} })).status).toBe(403);
    const ids = (await db().select().from(t.sysLog).where(inArray(t.sysLog.operationType, ['FEEDBACK_EXPORT']))).length;
    expect(ids).toBeGreaterThan(0);
  });
});
