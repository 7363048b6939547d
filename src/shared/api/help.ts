import type { Endpoint } from './endpoint';
import { grant, grantIn } from './permissions';

/**
 * 帮助中心 (second wave §11, prefix /busline/api/bus/help): catalogues and docs for riders and staff,
 * published or withdrawn; staff docs bound to a console page show in that page's `?` sheet.
 */

/** The page's button permission (second wave §0), declared once with its label. */
export const buttons = {
  HELP_DOC_EDIT: '编辑帮助文档',
} as const;
const can = grantIn(buttons);

/** Reading is for those who see the menu (decision 81). */
export const HELP_READ = grant({ menus: ['version'] });
export const HELP_EDITOR = can({ buttons: ['HELP_DOC_EDIT'] });

/** Every endpoint of 帮助中心, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
