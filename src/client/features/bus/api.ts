import { type QueryOf, busLine, station } from '../../../shared/api';
import { queryText } from '../../lib/http';
import { useApi } from '../../lib/use-api';

export const useLines = (query: QueryOf<typeof busLine.busLineList>) => useApi(busLine.busLineList, { query });
export const useLineInfo = (id: number | null) => useApi(busLine.busLineInfoCall, id ? { query: { id } } : null);
export const useSubLineInfo = (id: number | null) => useApi(busLine.busLineDetailInfo, id ? { query: { id } } : null);
/** Every station of the line's district not yet on the direction: the stop picker's choices. */
export const useStationsOffLine = (lineId: number | null, direction: 0 | 1) =>
  useApi(station.stationListExcludeLine, lineId ? { query: { lineId, direction: queryText(direction) } } : null);

/** A positive whole number from the screen's query (`?id=12`), else null. */
export function idParam(search: string, name = 'id'): number | null {
  const n = Number(new URLSearchParams(search).get(name));
  return Number.isInteger(n) && n > 0 ? n : null;
}

