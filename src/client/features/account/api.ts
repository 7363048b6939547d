import { useContext } from 'react';
import { type QueryOf, type Role, ROLE_RANK, ROLES, account, auth, rankOf, system } from '../../../shared/api';
import { GrantsContext } from '../../lib/permission';
import { useApi } from '../../lib/use-api';

export const useGroups = () => useApi(account.groupList);
export const useSysLogs = (query: QueryOf<typeof system.sysLogPage>) => useApi(system.sysLogPage, { query });
export const useOperationTypes = () => useApi(system.sysLogOperationTypes, {}, { revalidateIfStale: false });
/** The area list as the area selector reads it (spec §7: page 0, size 1000), so both share one cache entry. */
export const useDistricts = () => useApi(system.districtPage, { query: { page: 0, size: 1000 } });
/** Every item for the super user; for anyone else only their own. */
export const useAuthItems = () => useApi(auth.authItems);
export { useCurrentUser } from '../../lib/current-user';

/**
 * Roles the signed-in account may hand out: none above its own (README decision 9). A courtesy
 * for the select; the server refuses anything else.
 */
export function useGrantableRoles(): Role[] {
  const grants = useContext(GrantsContext);
  const own = rankOf(grants?.roles ?? []);
  return ROLES.filter((r) => ROLE_RANK[r] <= own);
}

/** Only the super user grants openDistrict and edits role groups' items (README decision 9). */
export function useIsSuperUser(): boolean {
  return useContext(GrantsContext)?.roles.includes('ROLE_APP_ADMIN') ?? false;
}

/** 启用/禁用 and 编辑 are the contract's narrower declarations within user/update (README decision 8). */
export const STATUS_PERMISSION = account.userStatusPermission;
