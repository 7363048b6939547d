import { system } from '../../shared/api';
import { useApi } from './use-api';

/**
 * District names by id, for asking and telling about records that carry only the id (a line, a
 * sub-line). The area list is the selector's own request (page 0, size 1000), answered from the
 * same cache; an account without openDistrict reads its own district there.
 */
export function useDistrictNames(): (id: number | null | undefined) => string | null {
  const { data } = useApi(system.districtPage, { query: { page: 0, size: 1000 } });
  return (id) => (id === null || id === undefined ? null : (data?.content.find((d) => d.id === id)?.name ?? null));
}

/** The name of one district by id (useDistrictNames). */
export function useDistrictName(id: number | null | undefined): string | null {
  return useDistrictNames()(id);
}
