import type { Endpoint } from '../api/endpoint';
import type { MenuId } from '../api/menus';
import type { ModuleManifest } from './define';
import { busModule } from './bus';
import { discountModule } from './discount';
import { downloadModule } from './download';
import { familyModule } from './family';
import { handleCardModule } from './handle-card';
import { rideModule } from './ride';
import { riderModule } from './rider';
import * as planned from './planned';
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
  planned.noticeReportModule,
  rideModule,
  riderModule,
  planned.rechargeModule,
  planned.cardVerifyModule,
  stationModule,
  busModule,
  planned.customBusModule,
  planned.customSettingModule,
  planned.packagePayModule,
  planned.activityModule,
  planned.rechargeableModule,
  familyModule,
  discountModule,
  handleCardModule,
] as const satisfies readonly ModuleManifest[];

type Module = (typeof MODULES)[number];
type ButtonsOf<M> = M extends { buttons: infer B } ? keyof B & string : never;
type OperationsOf<M> = M extends { operations: infer O } ? keyof O & string : never;
type PagesOf<M> = M extends { menu: { pages: readonly (infer P)[] } } ? P : never;
type ComponentOf<P> = P extends { component: infer C extends string } ? C : never;

export type ModuleId = Module['id'];
/** Button permission keys (spec §6): what the modules declare, nothing else. */
export type ButtonKey = ButtonsOf<Module>;
/** System-log operation types: what the modules declare. */
export type OperationType = OperationsOf<Module>;
/** The screens the console must have: every component of a page that is not planned. */
export type ScreenComponent = ComponentOf<Exclude<PagesOf<Module>, { planned: true }>>;

const merged = <K extends string>(pick: (m: ModuleManifest) => Readonly<Record<string, string>>) =>
  Object.assign({}, ...MODULES.map((m) => pick(m))) as Record<K, string>;

/** Every endpoint of the contract; the server binds exactly these and the tests check it. */
export const endpoints: readonly Endpoint[] = MODULES.flatMap((m): readonly Endpoint[] => m.endpoints);
export const BUTTON_LABELS = merged<ButtonKey>((m) => m.buttons);
export const BUTTON_KEYS = Object.keys(BUTTON_LABELS) as ButtonKey[];
export const OPERATION_TYPES = merged<OperationType>((m) => m.operations);

/** The module owning each sidebar menu. */
export const moduleOfMenu = (id: MenuId): ModuleManifest | undefined => MODULES.find((m) => 'menu' in m && m.menu.id === id);

/** `g` then a letter: each menu's jump key. */
export const MENU_JUMP_KEYS = Object.fromEntries(
  MODULES.flatMap((m) => ('menu' in m ? [[m.menu.id, m.menu.jumpKey] as const] : [])),
) as Record<MenuId, string>;

export { menuCatalogue, menuItemIds, type AuthItemRow } from './catalogue';
export type { MenuDef, ModuleManifest, PageDef } from './define';
export { defineModule, grantIn } from './define';
export { readTags, staleAfter, writeTags } from './tags';
