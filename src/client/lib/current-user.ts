import { auth } from '../../shared/api';
import { readDistrict } from './session-store';
import { useApi } from './use-api';

/** The signed-in account (district, group, openDistrict), from the SWR cache the session fills. */
export const useCurrentUser = () => useApi(auth.currentUser, {}, { revalidateIfStale: false });

/**
 * An account that may switch areas and has 全部区域 chosen: what it creates (a station, an
 * agreement) needs an area first. The layout remounts screens when the area changes, so reading the
 * stored choice per render is current.
 */
export function useNoAreaChosen(): boolean {
  const me = useCurrentUser();
  return !!me.data?.openDistrict && !readDistrict();
}
