import type { Endpoint } from './endpoint';
import { grant, grantIn } from './permissions';

/**
 * 意见反馈 (second wave §2, prefix /busline/api/bus/feedback): riders' feedback, claimed, answered or
 * declined with a reason, reopened by an administrator; overdue by working days.
 */

/** The module part's button permissions (second wave §0), declared once with their labels. */
export const buttons = {
  FEEDBACK_HANDLE: '处理意见反馈',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const FEEDBACK_READ = grant({ menus: ['noticeReport'] });
export const FEEDBACK_HANDLER = can({ buttons: ['FEEDBACK_HANDLE'] });

/** Every endpoint of 意见反馈, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
