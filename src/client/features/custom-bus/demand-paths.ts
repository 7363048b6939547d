import { pagePath } from '../../../shared/modules';

/** The pages of 定制汇总, 定制列表 and 定制记录, with the filters they open on. */
export const summaryPath = (q: { lineId?: number; startDate?: string; endDate?: string } = {}) => pagePath('customBus', 'summary', { query: q });
export const demandPath = (q: { state?: number; name?: string } = {}) => pagePath('customBus', 'custom-list', { query: q });
export const recordPath = (demandId?: number) => pagePath('customBus', 'custom-record', { query: { demandId } });
