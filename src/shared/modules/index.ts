import type { MenuId } from '../api/menus';
import type { ModuleManifest } from './define';
import { busModule } from './bus';
import { discountModule } from './discount';
import { downloadModule } from './download';
import { familyModule } from './family';
import { handleCardModule } from './handle-card';
import { noticeReportModule } from './notice-report';
import { packagePayModule } from './package-pay';
import { rideModule } from './ride';
import { riderModule } from './rider';
import { activityModule } from './activity';
import { cardVerifyModule } from './card-verify';
import { customBusModule } from './custom-bus';
import { customSettingModule } from './custom-setting';
import { rechargeableModule } from './rechargeable';
import { rechargeModule } from './recharge';
import { settingsModule } from './settings';
import { shellModule } from './shell';
import { stationModule } from './station';
import { userModule } from './user';
import { versionModule } from './version';

/** Every module of the console, one line each. The sidebar's order is spec §2's (MENU_IDS), not this. */
export const MODULES = [
  shellModule,
  downloadModule,
  userModule,
  settingsModule,
  versionModule,
  noticeReportModule,
  rideModule,
  riderModule,
  rechargeModule,
  cardVerifyModule,
  stationModule,
  busModule,
  customBusModule,
  customSettingModule,
  packagePayModule,
  activityModule,
  rechargeableModule,
  familyModule,
  discountModule,
  handleCardModule,
] as const satisfies readonly ModuleManifest[];

type Module = (typeof MODULES)[number];
type OperationsOf<M> = M extends { operations: infer O } ? keyof O & string : never;
type PagesOf<M> = M extends { menu: { pages: readonly (infer P)[] } } ? P : never;
type ComponentOf<P> = P extends { component: infer C extends string } ? C : never;

export type ModuleId = Module['id'];
/** System-log operation types: what the modules declare. */
export type OperationType = OperationsOf<Module>;
/** The screens the console must have: every page's component. */
export type ScreenComponent = ComponentOf<PagesOf<Module>>;

type MenuModule = Extract<Module, { menu: unknown }>;
/** A module that has pages (the shell and the download centre have none). */
export type PageModuleId = MenuModule['id'];
type PageOf<M extends PageModuleId> = Extract<MenuModule, { id: M }>['menu']['pages'][number];
/** The page keys a module declares (`user-list`): its route segments. */
export type PageKey<M extends PageModuleId> = PageOf<M>['key'];
type ActionsOf<P> = P extends { actions: readonly (infer A extends string)[] } ? A : never;
/** The `?action=` values a page declares it handles. */
export type PageAction<M extends PageModuleId, P extends string> = ActionsOf<Extract<PageOf<M>, { key: P }>>;
/** A page's declared action, named with its page: `['version', 'version', 'void']`. */
export type ActionRef = { [M in PageModuleId]: { [P in PageKey<M>]: readonly [module: M, page: P, action: PageAction<M, P>] }[PageKey<M>] }[PageModuleId];
/** Every action some page declares. */
export type ScreenActionName = ActionRef[2];


export const OPERATION_TYPES = Object.assign({}, ...MODULES.map((m) => m.operations)) as Record<OperationType, string>;

/** The module owning each sidebar menu. */
export const moduleOfMenu = (id: MenuId): ModuleManifest | undefined => MODULES.find((m) => 'menu' in m && m.menu.id === id);

/** `g` then a letter: each menu's jump key. */
export const MENU_JUMP_KEYS = Object.fromEntries(
  MODULES.flatMap((m) => ('menu' in m ? [[m.menu.id, m.menu.jumpKey] as const] : [])),
) as Record<MenuId, string>;

/**
 * The address of a page, from the manifests: the module and page are checked at compile time, and so
 * is the action (one the page declares), so a renamed page or action fails `tsc` where it is linked.
 * Empty query values are left out.
 */
export function pagePath<M extends PageModuleId, P extends PageKey<M>>(
  module: M,
  page: P,
  opts: { action?: PageAction<M, P>; query?: Readonly<Record<string, string | number | null | undefined>> } = {},
): string {
  const owner = MODULES.find((m) => m.id === module);
  if (!owner || !('menu' in owner)) throw new Error(`module ${module} has no pages`);
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  if (opts.action) q.set('action', opts.action);
  const qs = q.toString();
  return `/${owner.menu.id}/${page}${qs ? `?${qs}` : ''}`;
}

export { menuCatalogue, menuItemIds, type AuthItemRow } from './catalogue';
export type { MenuDef, ModuleManifest, PageDef } from './define';
export type { ButtonKey } from './contract';
export { defineModule } from './define';
