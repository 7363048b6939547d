import { station } from '../../../shared/api';
import type { CallInput } from '../../lib/http';
import { useApi } from '../../lib/use-api';

export const useStations = (query: CallInput['query']) => useApi(station.stationList, { query });
export const useQrSurplus = () => useApi(station.stationQrSurplus, {});
export { useNoAreaChosen } from '../../lib/current-user';
