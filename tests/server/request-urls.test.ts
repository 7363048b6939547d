import { Writable } from 'node:stream';
import type { z } from 'zod';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, card, family } from '../../src/shared/api';
import { endpoints } from '../../src/shared/api/contract';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { redactQueryValues } from '../../src/server/lib/log-redaction';
import { DEMO_PASSWORD, TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';
import { readXlsx } from '../support/xlsx-read';

/**
 * Issue 19 B10: the spec's calls that carry a phone, a citizen id, a typed reason or the operator's
 * password in the query keep answering, and each has a body form (a POST at the same path for the
 * reads, `<path>/body` for the two password calls) that answers exactly the same, under the same
 * permission, district scope, masking and audit. Whatever form a caller uses, no log line holds a
 * query value.
 */
let s: TestServer;
let admin: string;
let manager: string;
let agent: string;
let viewer: string;
let xuhui: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;
const lines: string[] = [];

beforeAll(async () => {
  // The server logs at the most talkative level, into lines this file reads back.
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  s = await startTestServer({}, { logger: { level: 'trace', stream: sink } });
  [admin, manager, agent, viewer] = (await Promise.all(['admin', 'manager', 'agent', 'viewer'].map((u) => s.login(u)))) as [string, string, string, string];
  xuhui = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
});
afterAll(() => s.close());

/** A verified rider of 徐汇区 with a live family binding there, in the clear (the test holds the key). */
async function boundRider(skip = 0) {
  const rows = await db()
    .select({ b: t.familyBindings, cardNo: t.busCards.cardNo, r: t.riders })
    .from(t.familyBindings)
    .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
    .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId))
    .where(and(eq(t.familyBindings.districtId, xuhui), eq(t.familyBindings.status, 1), sql`${t.riders.citizenEnc} is not null`))
    .orderBy(t.familyBindings.id)
    .limit(skip + 1);
  const row = rows[skip]!;
  return { bindingId: row.b.id, riderId: row.r.id, cardNo: row.cardNo, relation: row.b.relation, phone: pii.decrypt(row.r.phoneEnc), citizen: pii.decrypt(row.r.citizenEnc!) };
}

const bodyForms = endpoints.filter((e) => e.bodyFormOf !== null);
const specOf = (e: Endpoint) => endpoints.find((x) => x.id === e.bodyFormOf)!;

describe('the body forms', () => {
  it('each names its spec call, takes the same input, answers the same shape under the same permission', () => {
    expect(bodyForms.map((e) => e.id).sort()).toEqual(['cardVerify.pageByBody', 'cardVerify.totalByBody', 'customDriver.pageByBody', 'customDriver.totalByBody', 'customOrder.pageByBody', 'customOrder.totalByBody', 'family.bindExportByBody', 'family.bindPageByBody', 'family.bindSummaryByBody', 'family.unBindByBody', 'family.updateBindByBody', 'handleCard.pageByBody', 'handleCard.totalByBody', 'packageOrder.pageByBody', 'packageOrder.totalByBody', 'recharge.pageByBody', 'recharge.totalByBody', 'rider.pageByBody', 'rider.revealByBody', 'user.pageByBody', 'wallet.pageByBody', 'wallet.totalByBody']);
    for (const e of bodyForms) {
      const spec = specOf(e);
      expect(spec, e.id).toBeDefined();
      expect(e.method, e.id).toBe('POST');
      // A GET's body form is at its own path; a POST's (already taken) is at <path>/body.
      expect(e.path, e.id).toBe(spec.method === 'GET' ? spec.path : `${spec.path}/body`);
      expect(e.permission, e.id).toEqual(spec.permission);
      expect(e.response, e.id).toBe(spec.response);
      expect([e.file, e.timeoutMs], e.id).toEqual([spec.file, spec.timeoutMs]);
      expect(e.readsOnly, e.id).toBe(spec.method === 'GET');
      expect(Object.keys((e.query as z.ZodObject).shape), e.id).toEqual([]);
    }
  });

  /** The spec form's input and the same as a body, for each read: with the sensitive filters set. */
  const READS: Record<string, (r: Awaited<ReturnType<typeof boundRider>>) => Partial<Record<string, string | number>>[]> = {
    'rider.pageByBody': (r) => [{}, { phone: r.phone }, { phone: `${r.phone.slice(0, 3)} ${r.phone.slice(3, 7)}-${r.phone.slice(7)}` }, { citizenCardNo: r.citizen.toLowerCase() }, { state: '0', size: 5 }],
    'family.bindPageByBody': (r) => [{}, { citizenCardNo: r.citizen }, { busCardNo: r.cardNo, status: '1' }],
    'family.bindSummaryByBody': (r) => [{}, { citizenCardNo: r.citizen }],
    'family.bindExportByBody': (r) => [{}, { citizenCardNo: r.citizen }],
    'rider.revealByBody': (r) => [{ id: r.riderId, reason: `来电 ${r.phone} 核实` }],
    'user.pageByBody': () => [{}, { keyword: '13800138001' }, { keyword: 'staff', activated: 'true', size: 5 }],
    'packageOrder.pageByBody': (r) => [{}, { phone: r.phone }, { status: '1', size: 5 }],
    'customDriver.pageByBody': (r) => [{ phone: r.phone, size: 5 }, { idNo: r.citizen, size: 5 }],
    'customDriver.totalByBody': (r) => [{ phone: r.phone }],
    'customOrder.pageByBody': (r) => [{}, { phone: r.phone }, { status: '1', size: 5 }],
    'customOrder.totalByBody': (r) => [{}, { phone: r.phone }],
    'packageOrder.totalByBody': (r) => [{}, { phone: r.phone }],
    'recharge.pageByBody': (r) => [{}, { phone: r.phone }, { writeState: '4', size: 5 }],
    'recharge.totalByBody': (r) => [{}, { phone: r.phone }],
    'wallet.pageByBody': (r) => [{}, { phone: r.phone }, { status: '1', size: 5 }],
    'wallet.totalByBody': (r) => [{}, { phone: r.phone }, { status: '2' }],
    'cardVerify.pageByBody': (r) => [{}, { idNo: r.citizen }, { status: '0', size: 5 }],
    'cardVerify.totalByBody': (r) => [{}, { idNo: r.citizen }],
    'handleCard.pageByBody': (r) => [{}, { phone: r.phone }, { idNo: r.citizen, size: 5 }],
    'handleCard.totalByBody': (r) => [{}, { phone: r.phone }],
  };

  it('every read answers exactly what its spec form answers, for each reader (scope, masking, refusals)', async () => {
    const reads = bodyForms.filter((e) => e.readsOnly);
    expect(Object.keys(READS).sort()).toEqual(reads.map((e) => e.id).sort());
    const r = await boundRider();
    let compared = 0;
    for (const e of reads) {
      for (const input of READS[e.id]!(r)) {
        for (const token of [admin, manager, agent, viewer]) {
          const viaQuery = await s.call(specOf(e), { token, query: input });
          const viaBody = await s.call(e, { token, body: input });
          expect(viaBody.status, `${e.id} ${JSON.stringify(input)}`).toBe(viaQuery.status);
          if (viaQuery.file) {
            // The same rows (the file's own timestamps differ): masked, in the same order.
            expect((await readXlsx(viaBody.file!)).rows).toEqual((await readXlsx(viaQuery.file)).rows);
          } else {
            expect(viaBody.body, `${e.id} ${JSON.stringify(input)}`).toEqual(viaQuery.body);
          }
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
    // Two calls per input and reader, some of them exports read back: a minute on a busy machine.
  }, 90_000);

  it('the body forms find the one rider and binding the typed numbers name, in the agent\'s area only', async () => {
    const r = await boundRider();
    const byPhone = await s.call(card.riderPageByBody, { token: agent, body: { phone: r.phone } });
    expect(byPhone.body.data.content.map((x) => x.id)).toEqual([r.riderId]);
    expect(byPhone.body.data.content[0]!.phone).toMatch(/^1\d{2}\*{4}\d{4}$/);
    const byCitizen = await s.call(family.bindPageByBody, { token: agent, body: { citizenCardNo: r.citizen } });
    expect(byCitizen.body.data.content.map((b) => b.id)).toContain(r.bindingId);
    expect(JSON.stringify(byCitizen.body.data)).not.toContain(r.citizen);
    // Another district's rider is not found by the agent of 徐汇区, through either form.
    const [foreign] = await db().select().from(t.riders).where(sql`${t.riders.districtId} <> ${xuhui}`).limit(1);
    const foreignPhone = pii.decrypt(foreign!.phoneEnc);
    expect((await s.call(card.riderPageByBody, { token: agent, body: { phone: foreignPhone } })).body.data.content).toEqual([]);
    expect((await s.call(card.riderPageByBody, { token: admin, body: { phone: foreignPhone } })).body.data.content).toHaveLength(1);
  });

  it('the reveal by body is audited with its reason masked, answered no-store, and refused without the button', async () => {
    const r = await boundRider();
    const res = await s.call(card.riderRevealByBody, { token: agent, body: { id: r.riderId, reason: `来电 ${r.phone} 核实身份` } });
    expect(res.body.data.phone).toBe(r.phone);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const [row] = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'RIDER_REVEAL'), eq(t.sysLog.operatorLogin, 'agent'))).orderBy(desc(t.sysLog.id)).limit(1);
    expect(row!.summary).toContain('核实身份');
    expect(JSON.stringify(row)).not.toContain(r.phone);
    expect((await s.call(card.riderRevealByBody, { token: viewer, body: { id: r.riderId, reason: '来电核实身份' } })).status).toBe(403);
  });
});

describe('unBind and updateBind by body', () => {
  const unbindByBody = (token: string, body: { busCardNo: string; citizenCardNo: string; pwd?: string }) => s.call(family.unBindByBody, { token, body });

  it('update with the password in the body: refused when wrong, saved and audited without it when right', async () => {
    const r = await boundRider(1);
    const wrong = await s.call(family.updateBindByBody, { token: agent, body: { id: r.bindingId, relation: '堂兄', pwd: 'Not-the-pass-1' } });
    expect(wrong.body).toMatchObject({ code: 0, msg: '登录密码错误', data: { errors: [{ field: 'pwd', msg: '登录密码错误' }] } });
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, r.bindingId)))[0]!.relation).toBe(r.relation);
    const ok = await s.call(family.updateBindByBody, { token: agent, body: { id: r.bindingId, relation: '堂兄', pwd: DEMO_PASSWORD } });
    expect(ok.body.data.relation).toBe('堂兄');
    const [row] = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `family-binding/${r.bindingId}`)).orderBy(desc(t.sysLog.id)).limit(1);
    expect(row).toMatchObject({ operationType: 'FAMILY_UPDATE', operatorLogin: 'agent' });
    // The password is not in the query form's place either: a body form ignores a `pwd` query.
    const fromQuery = await s.call(family.updateBindByBody, { token: agent, query: { pwd: DEMO_PASSWORD }, body: { id: r.bindingId, relation: '堂弟' } });
    expect(fromQuery.status).toBe(400);
    expect(fromQuery.body.msg).toContain('请输入您的登录密码');
  });

  it('unbind with the card, citizen id and password in the body: unbound, audited without the password or the id; no password, a 400', async () => {
    const r = await boundRider(2);
    const missing = await unbindByBody(agent, { busCardNo: r.cardNo, citizenCardNo: r.citizen });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toMatchObject({ errors: [{ field: 'pwd', msg: '请输入您的登录密码' }] });
    const ok = await unbindByBody(agent, { busCardNo: r.cardNo, citizenCardNo: r.citizen, pwd: DEMO_PASSWORD });
    expect(ok.body.code, ok.body.msg).toBe(1);
    expect(ok.body.data).toMatchObject({ id: r.bindingId, status: 0 });
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, r.bindingId)))[0]!.status).toBe(0);
    const [row] = await db().select().from(t.sysLog).where(eq(t.sysLog.target, `family-binding/${r.bindingId}`)).orderBy(desc(t.sysLog.id)).limit(1);
    expect(row).toMatchObject({ operationType: 'FAMILY_UNBIND', operatorLogin: 'agent' });
    const everything = JSON.stringify(await db().select().from(t.sysLog));
    expect(everything).not.toContain(DEMO_PASSWORD);
    expect(everything).not.toContain(r.citizen);
  });

  it('refuses another district\'s binding (403, audited) and an account without FAMILY_CARD_EDIT (403)', async () => {
    const [foreign] = await db().select().from(t.familyBindings).where(and(sql`${t.familyBindings.districtId} <> ${xuhui}`, eq(t.familyBindings.status, 1))).limit(1);
    const denied = await s.call(family.updateBindByBody, { token: agent, body: { id: foreign!.id, relation: '父亲', pwd: DEMO_PASSWORD } });
    expect(denied.status).toBe(403);
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, foreign!.id)))[0]!.relation).toBe(foreign!.relation);
    const r = await boundRider(3);
    expect((await unbindByBody(viewer, { busCardNo: r.cardNo, citizenCardNo: r.citizen, pwd: DEMO_PASSWORD })).status).toBe(403);
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, r.bindingId)))[0]!.status).toBe(1);
  });

  it('wrong passwords in the body count towards the same lockout as the spec form\'s: the fifth locks the operator', async () => {
    const r = await boundRider(3);
    const token = await s.login('manager');
    // Four through the spec's query form, the fifth through the body form: one counter.
    for (let i = 0; i < 4; i++) await s.call(family.unBind, { token, query: { busCardNo: r.cardNo, citizenCardNo: r.citizen, pwd: `Wrong-${i}-pass` } });
    await unbindByBody(token, { busCardNo: r.cardNo, citizenCardNo: r.citizen, pwd: 'Wrong-4-pass' });
    expect((await unbindByBody(token, { busCardNo: r.cardNo, citizenCardNo: r.citizen, pwd: DEMO_PASSWORD })).status).toBe(401);
    expect((await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, r.bindingId)))[0]!.status).toBe(1);
  });
});

describe('the server\'s logs', () => {
  it('redacts every query value, keeping the keys', () => {
    expect(redactQueryValues('GET /buscodepc/fyapi/wx-user/page?phone=13800138001&size=20 x')).toBe('GET /buscodepc/fyapi/wx-user/page?phone=***&size=*** x');
    expect(redactQueryValues('"url":"/a/unBind?busCardNo=3101&citizenCardNo=11010519491231002X&pwd=Bus%402026"')).toBe('"url":"/a/unBind?busCardNo=***&citizenCardNo=***&pwd=***"');
    expect(redactQueryValues('no query here')).toBe('no query here');
  });

  it('hold the requests (so the test is not vacuous) but no phone, citizen id or password sent in a query, on any path', async () => {
    const r = await boundRider(4);
    lines.length = 0;
    await s.call(card.riderPage, { token: agent, query: { phone: r.phone } });
    await s.call(card.riderPage, { token: agent, query: { citizenCardNo: r.citizen } });
    await s.call(family.bindSummary, { token: agent, query: { citizenCardNo: r.citizen } });
    await s.call(family.unBind, { token: agent, query: { busCardNo: r.cardNo, citizenCardNo: r.citizen, pwd: 'Query-pass-9' } });
    // A bad one (400), an unknown API path (404), a malformed escape and a refused reader (403): the error paths log too.
    await s.call(family.unBind, { token: agent, query: { busCardNo: '12', citizenCardNo: r.citizen, pwd: 'Query-pass-8' } });
    await s.raw('GET', `/buscodepc/fyapi/no-such-call?phone=${r.phone}&pwd=Query-pass-7`);
    await s.raw('GET', `/buscodepc/fyapi/wx-user/%E0%A4%A?citizenCardNo=${r.citizen}&pwd=Query-pass-6`);
    await s.call(card.riderPage, { token: viewer, query: { phone: r.phone } });
    // Fastify's own warnings quote `request.raw.url` in the message, past the request serializer.
    s.app.log.warn(`Reply was already sent, did you forget to "return reply" in the "/buscodepc/fyapi/wx-user/page?phone=${r.phone}&pwd=Query-pass-5" (GET) route?`);
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(8);
    expect(text).toContain('/buscodepc/fyapi/wx-user/page');
    expect(text).toContain('/buscodepc/fyapi/familyCard/bind/unBind');
    expect(text).toContain('/buscodepc/fyapi/no-such-call');
    expect(text).toContain('wx-user/page?phone=***&pwd=***');
    for (const v of [r.phone, r.citizen, r.cardNo, 'Query-pass-9', 'Query-pass-8', 'Query-pass-7', 'Query-pass-6', 'Query-pass-5']) expect(text).not.toContain(v);
  });
});

