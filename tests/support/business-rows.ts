import { asc } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';

/**
 * What the server stores of accounts, groups, agreements and the line network: compared before and after refused
 * writes to prove a refusal changed nothing (counts alone would miss an edit in place).
 */
export async function businessRows(db: Db) {
  return {
    users: await db
      .select({ id: t.users.id, login: t.users.login, firstName: t.users.firstName, phone: t.users.phone, activated: t.users.activated, authorities: t.users.authorities, groupId: t.users.groupId, districtId: t.users.districtId, openDistrict: t.users.openDistrict, passwordHash: t.users.passwordHash })
      .from(t.users)
      .orderBy(asc(t.users.id)),
    groups: await db.select({ id: t.roleGroups.id, name: t.roleGroups.name, description: t.roleGroups.description }).from(t.roleGroups).orderBy(asc(t.roleGroups.id)),
    items: await db.select().from(t.roleGroupItems).orderBy(asc(t.roleGroupItems.groupId), asc(t.roleGroupItems.itemId)),
    agreements: await db
      .select({ id: t.agreements.id, districtId: t.agreements.districtId, code: t.agreements.code, title: t.agreements.title, content: t.agreements.content })
      .from(t.agreements)
      .orderBy(asc(t.agreements.id)),
    lines: await db.select().from(t.busLines).orderBy(asc(t.busLines.id)),
    stops: await db.select().from(t.lineStations).orderBy(asc(t.lineStations.id)),
    routes: await db.select().from(t.lineRoutes).orderBy(asc(t.lineRoutes.id)),
    subLines: await db.select().from(t.lineDetails).orderBy(asc(t.lineDetails.id)),
    subLineStops: await db.select().from(t.lineDetailStations).orderBy(asc(t.lineDetailStations.id)),
  };
}
