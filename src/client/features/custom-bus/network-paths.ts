import { pagePath } from '../../../shared/modules';

/** Addresses of 定制站点, 定制线路, its form and its 轨迹 (the palette and the pages link with these). */
export const stationListPath = (add = false) => pagePath('customBus', 'custom-station', add ? { action: 'add' as const } : {});
export const lineListPath = (query: { status?: number; stationId?: number; keyword?: string } = {}) => pagePath('customBus', 'custom-line', { query });
export const lineEditPath = (id?: number) => pagePath('customBus', 'add-custom-line', id ? { query: { id } } : {});
export const linePathPath = (lineId: number, direction?: 0 | 1) => pagePath('customBus', 'custom-line-path', { query: direction === undefined ? { id: lineId } : { id: lineId, direction } });
