import { system } from '../../../shared/api';
import { useApi } from '../../lib/use-api';

/** The area list as the area selector reads it (spec §7: page 0, size 1000): one cache entry for both. */
export const useAllDistricts = () => useApi(system.districtPage, { query: { page: 0, size: 1000 } });
export { useCurrentUser, useNoAreaChosen } from '../../lib/current-user';
