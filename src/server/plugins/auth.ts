import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { DISTRICT_HEADER, LOGIN_ELSEWHERE, LOGIN_RESULT_HEADER, Msg } from '../../shared/api';
import type { AppDeps, AuthContext } from '../context';
import * as t from '../db/schema';
import { type Actor, audit } from '../lib/audit';
import { badRequest, forbidden, unauthorized } from '../lib/errors';
import { itemsOf } from '../lib/grants';

/** Sessions live on the server; the token only names one. */
export async function signSessionToken(deps: AppDeps, sessionId: string, userId: number, createdAt: Date): Promise<string> {
  const iat = Math.floor(createdAt.getTime() / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + deps.config.sessionMaxAgeSeconds)
    .sign(deps.jwtKey);
}

/** Seen-at is written at most this often, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 15_000;

export async function endSessions(db: AppDeps['db'], userId: number, reason: string, at: Date, exceptId?: string) {
  const live = and(eq(t.sessions.userId, userId), isNull(t.sessions.endedAt));
  await db
    .update(t.sessions)
    .set({ endedAt: at, endReason: reason })
    .where(exceptId ? and(live, sql`${t.sessions.id} <> ${exceptId}`) : live);
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m?.[1]?.trim() || null;
}

/**
 * Whether a session still stands, without counting as its activity: for a stream opened with it
 * (the download centre's events), which must not keep an idle session alive.
 */
export async function sessionAlive(deps: AppDeps, sessionId: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ session: t.sessions, changed: t.users.passwordChangedAt, activated: t.users.activated })
    .from(t.sessions)
    .innerJoin(t.users, eq(t.users.id, t.sessions.userId))
    .where(eq(t.sessions.id, sessionId));
  if (!row || row.session.endedAt || !row.activated || row.session.createdAt < row.changed) return false;
  const now = deps.clock.now().getTime();
  return now - row.session.createdAt.getTime() < deps.config.sessionMaxAgeSeconds * 1000 && now - row.session.lastSeenAt.getTime() < deps.config.tokenTtlSeconds * 1000;
}

/**
 * What an account's reach was made from: its own row and its role group's, by their versions. A
 * stream compares it at each ping and ends when it moved (another district, other menus), so the
 * console reconnects with the account as it is now instead of hearing by yesterday's rights.
 */
export async function accessStamp(deps: AppDeps, userId: number): Promise<string> {
  const [row] = await deps.db
    .select({ user: t.users.rowVersion, group: t.roleGroups.rowVersion })
    .from(t.users)
    .leftJoin(t.roleGroups, eq(t.roleGroups.id, t.users.groupId))
    .where(eq(t.users.id, userId));
  return row ? `${row.user}/${row.group ?? '-'}` : 'gone';
}

export async function resolveAuth(deps: AppDeps, req: FastifyRequest): Promise<AuthContext> {
  const token = bearer(req);
  if (!token) throw unauthorized();
  const now = deps.clock.now();
  let sid: string;
  try {
    const { payload } = await jwtVerify(token, deps.jwtKey, { algorithms: ['HS256'], currentDate: now });
    if (typeof payload.sid !== 'string') throw new Error('no sid');
    sid = payload.sid;
  } catch {
    throw unauthorized();
  }
  const [row] = await deps.db
    .select({ session: t.sessions, user: t.users })
    .from(t.sessions)
    .innerJoin(t.users, eq(t.users.id, t.sessions.userId))
    .where(eq(t.sessions.id, sid));
  if (!row) throw unauthorized();
  const { session, user } = row;
  if (session.endedAt) {
    if (session.endReason === 'replaced') {
      throw unauthorized(Msg.loggedInElsewhere, { [LOGIN_RESULT_HEADER]: LOGIN_ELSEWHERE });
    }
    throw unauthorized();
  }
  const nowMs = now.getTime();
  // A session older than the password is void, whatever ended (or failed to end) it.
  const stale = session.createdAt < user.passwordChangedAt;
  const expired = stale || nowMs - session.createdAt.getTime() >= deps.config.sessionMaxAgeSeconds * 1000;
  const idle = nowMs - session.lastSeenAt.getTime() >= deps.config.tokenTtlSeconds * 1000;
  if (expired || idle || !user.activated) {
    await deps.db
      .update(t.sessions)
      .set({ endedAt: now, endReason: expired ? 'expired' : idle ? 'idle' : 'disabled' })
      .where(and(eq(t.sessions.id, sid), isNull(t.sessions.endedAt)));
    throw unauthorized();
  }
  if (nowMs - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await deps.db
      .update(t.sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(t.sessions.id, sid), isNull(t.sessions.endedAt), lt(t.sessions.lastSeenAt, now)));
  }
  // Known from here on: a refusal below is written to the log under this account.
  req.actor = { id: user.id, login: user.login, districtId: user.districtId, ip: req.ip };
  const buttons = (await itemsOf(deps.db, user.authorities, user.groupId, 'button')).map((i) => i.id);
  const menus = (await itemsOf(deps.db, user.authorities, user.groupId, 'menu')).map((i) => i.id);
  const districtScope = await resolveDistrict(deps, req, user);
  return {
    user,
    session,
    roles: user.authorities,
    buttons,
    menus,
    districtScope,
    actor: { ...req.actor, districtId: districtScope ?? user.districtId },
  };
}

/** Every refusal for lack of permission leaves a trace in the system log (called by the error handler). */
export async function auditDenied(deps: AppDeps, req: FastifyRequest, reason: string): Promise<void> {
  if (!req.actor) return;
  const endpoint = req.routeOptions.config.endpointId ?? `${req.method} ${req.url.split('?')[0]}`;
  const district = req.headers[DISTRICT_HEADER];
  const summary = `${reason}（${endpoint}${district ? `，区域 ${String(district).slice(0, 20)}` : ''}）`;
  // About the refused account's own district (req.actor carries it, not the header's), so its
  // district managers see the attempt; what was asked for is named only in the summary.
  await audit(deps.db, req.actor, { type: 'DENIED', targetDistrictId: req.actor.districtId, target: endpoint, summary, result: 0 }, deps.clock.now());
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The account behind the request, once its session is resolved. */
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    endpointId?: string;
  }
}

/**
 * The `districtId` header picks the area. An account without openDistrict works only in its own
 * district; one with it may pick any existing district, or none (every district).
 */
async function resolveDistrict(deps: AppDeps, req: FastifyRequest, user: AuthContext['user']): Promise<number | null> {
  const raw = req.headers[DISTRICT_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return user.openDistrict ? null : user.districtId;
  if (!/^\d{1,9}$/.test(value)) throw badRequest('区域ID不正确');
  const id = Number(value);
  if (!user.openDistrict) {
    if (id !== user.districtId) throw forbidden(Msg.foreignDistrict);
    return id;
  }
  const [d] = await deps.db.select({ id: t.districts.id }).from(t.districts).where(eq(t.districts.id, id));
  if (!d) throw forbidden(Msg.foreignDistrict);
  return id;
}
