import { and, asc, count, eq, inArray, notInArray } from 'drizzle-orm';
import type { Db } from '../db/connection';
import * as t from '../db/schema';

export { rankOf } from '../../shared/api';

/** The super user holds every item; everyone else the items of their role group. */
export async function itemsOf(db: Db, roles: readonly string[], groupId: number | null, type?: 'button' | 'menu') {
  const byType = type ? eq(t.authItems.type, type) : undefined;
  if (roles.includes('ROLE_APP_ADMIN')) {
    return db.select().from(t.authItems).where(byType).orderBy(asc(t.authItems.sort));
  }
  if (groupId === null) return [];
  const ids = db.select({ id: t.roleGroupItems.itemId }).from(t.roleGroupItems).where(eq(t.roleGroupItems.groupId, groupId));
  return db
    .select()
    .from(t.authItems)
    .where(and(inArray(t.authItems.id, ids), byType))
    .orderBy(asc(t.authItems.sort));
}

/** Whether role group `groupId` holds any item that group `ownGroupId` lacks. */
export async function groupExceeds(db: Db, groupId: number, ownGroupId: number | null): Promise<boolean> {
  if (groupId === ownGroupId) return false;
  const own = db.select({ id: t.roleGroupItems.itemId }).from(t.roleGroupItems).where(eq(t.roleGroupItems.groupId, ownGroupId ?? -1));
  const [extra] = await db
    .select({ n: count() })
    .from(t.roleGroupItems)
    .where(and(eq(t.roleGroupItems.groupId, groupId), notInArray(t.roleGroupItems.itemId, own)));
  return (extra?.n ?? 0) > 0;
}
