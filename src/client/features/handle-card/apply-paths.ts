import { pagePath } from '../../../shared/modules';
import { createHandOff } from '../../business/desk/lookup-handoff';

/** A phone from the palette's 查办卡申请 to 办卡申请's phone filter, through memory (never the address). */
export const applyPhone = createHandOff<'find'>();

export const applyListPath = (applyNo?: string) => pagePath('handleCard', 'handle-card-list', applyNo ? { query: { applyNo } } : {});
export const settingPath = () => pagePath('handleCard', 'handle-card-setting');
export const ruleEditPath = (id: number) => pagePath('handleCard', 'handle-card-rule-edit', { query: { id } });
