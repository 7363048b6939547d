import { system } from '../../shared/api';
import { useApi } from './use-api';

/**
 * The name of a district by id, for asking and telling about a record that carries only the id (a
 * line, a sub-line). The area list is the selector's own request (page 0, size 1000), answered from
 * the same cache; an account without openDistrict reads its own district there.
 */
export function useDistrictName(id: number | null | undefined): string | null {
  const { data } = useApi(system.districtPage, { query: { page: 0, size: 1000 } });
  if (id === null || id === undefined) return null;
  return data?.content.find((d) => d.id === id)?.name ?? null;
}
