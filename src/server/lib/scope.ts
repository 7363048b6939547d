import { type SQL, eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Msg } from '../../shared/api';
import type { AuthContext } from '../context';
import { forbidden } from './errors';

/**
 * District scoping, written once. A request works in one district (the `districtId` header, or the
 * account's own) or, for an openDistrict account without a choice, in all of them (scope null).
 */

/** The condition keeping a district-owned query to the request's district; undefined means all. */
export const inScope = (a: Pick<AuthContext, 'districtScope'>, column: AnyPgColumn): SQL | undefined =>
  a.districtScope === null ? undefined : eq(column, a.districtScope);

/** Refuses (403, audited centrally) a loaded row that belongs to another district. */
export function assertInScope(a: Pick<AuthContext, 'districtScope'>, districtId: number | null): void {
  if (a.districtScope !== null && districtId !== a.districtScope) throw forbidden(Msg.foreignDistrict);
}
