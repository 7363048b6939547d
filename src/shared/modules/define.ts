import type { MenuId } from '../api/menus';
import type { Role } from '../api/permissions';

/**
 * A module is declared once, here in shared (no React, no node): what the seed puts in the menu
 * catalogue, what the console routes and hides, and what the system log names all come from its
 * manifest; what the server binds is its line in MODULE_ENDPOINTS (modules/contract.ts), kept out
 * of the manifest so the console's shell loads no endpoint schemas (README decision 162). Adding a
 * module: its manifest file, its server folder, its client folder, one line in MODULES
 * (modules/index.ts) and one in MODULE_ENDPOINTS.
 */
export interface PageDef {
  /** The route segment under the menu: `/{menu.id}/{key}`. */
  key: string;
  title: string;
  /**
   * The screen the console renders; the client's screen map must hold every page's component (a
   * compile error otherwise), and nothing else.
   */
  component: string;
  /** Reached from another screen only (auth item type `page`), not listed in the menu. */
  hidden?: boolean;
  /** Routes the console filters by role (spec §6); the server enforces the same on the calls. */
  roles?: readonly Role[];
  /**
   * What the page does when its address says `?action=…` (a palette command opening its dialog):
   * `pagePath` builds such addresses and `useScreenAction` handles them, both only for these.
   */
  actions?: readonly string[];
}

export interface MenuDef {
  id: MenuId;
  title: string;
  icon: string;
  /** `g` then this letter jumps to the menu's first page. */
  jumpKey: string;
  roles?: readonly Role[];
  pages: readonly PageDef[];
}

export interface ModuleManifest {
  id: string;
  /** The sidebar menu the module owns; the shell module (login, session) has none. */
  menu?: MenuDef;
  /** System-log operation types the module writes, with their labels. */
  operations: Readonly<Record<string, string>>;
}

export const defineModule = <const M extends ModuleManifest>(m: M): M => m;

