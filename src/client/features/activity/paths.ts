import { createHandOff } from '../../business/desk/lookup-handoff';
import { pagePath } from '../../../shared/modules';

/**
 * An activity's 预演 or 效果 asked from the palette reaches 活动列表 through memory: `q` is
 * `<id>` or `<id>:<days>`, `then` which view opens. The list opens it over its rows.
 */
export const openView = createHandOff<'simulate' | 'effect'>();

export const listPath = (status?: number) => pagePath('acitivity', 'activity', status === undefined ? {} : { query: { status } });
export const limitPath = () => pagePath('acitivity', 'discount-limit');
export const recordPath = (activityId?: number) => pagePath('acitivity', 'operate-record', activityId ? { query: { activityId } } : {});
