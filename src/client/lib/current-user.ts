import { auth } from '../../shared/api';
import { useApi } from './use-api';

/** The signed-in account (district, group, openDistrict), from the SWR cache the session fills. */
export const useCurrentUser = () => useApi(auth.currentUser, {}, { revalidateIfStale: false });
