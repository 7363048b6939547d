import { createHandOff } from '../../business/desk/lookup-handoff';
import { pagePath } from '../../../shared/modules';

/** A driver's phone from the palette to 司机管理's phone filter, through memory (never the address). */
export const driverPhone = createHandOff();

export const carListPath = (query: { plateNo?: string; status?: number; expiring?: boolean } = {}) =>
  pagePath('customBus', 'car', { query: { plateNo: query.plateNo, status: query.status, expiring: query.expiring ? 'true' : undefined } });
export const carEditPath = (id?: number) => pagePath('customBus', 'add-car', id ? { query: { id } } : {});
export const driverListPath = (query: { name?: string } = {}) => pagePath('customBus', 'driver', { query: { name: query.name } });
export const driverEditPath = (id?: number) => pagePath('customBus', 'add-driver', id ? { query: { id } } : {});
