import { type QueryOf, station } from '../../../shared/api';
import { useApi } from '../../lib/use-api';

export const useStations = (query: QueryOf<typeof station.stationList>) => useApi(station.stationList, { query });
export const useQrSurplus = () => useApi(station.stationQrSurplus, {});
export { useNoAreaChosen } from '../../lib/current-user';
