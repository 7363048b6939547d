import { useContext } from 'react';
import { type Role, ROLE_RANK, ROLES, account, auth, rankOf, system } from '../../../shared/api';
import { GrantsContext } from '../../lib/permission';
import { useApi } from '../../lib/use-api';

export const useGroups = () => useApi(account.groupList);
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
  // Least privilege first: ArrowDown on the empty choice picks 用户, never 超级管理员.
  return ROLES.filter((r) => ROLE_RANK[r] <= own).sort((a, b) => ROLE_RANK[a] - ROLE_RANK[b]);
}

/** Only the super user grants openDistrict and edits role groups' items (README decision 9). */
export function useIsSuperUser(): boolean {
  return useContext(GrantsContext)?.roles.includes('ROLE_APP_ADMIN') ?? false;
}
