import { describe, expect, it } from 'vitest';
import { FEATURES, SCREENS } from '../../src/client/app/features';
import type { CommandContext } from '../../src/client/commands/types';
import { COMMANDS, SOURCES } from '../../src/client/app/feature-commands';
import fs from 'node:fs';
import path from 'node:path';
import { MENU_IDS, MODULES, OPERATION_TYPES, menuCatalogue } from '../../src/shared/api';
import { BUTTON_KEYS, CONTRACT_MODULES, endpoints } from '../../src/shared/api/contract';
import type { PageDef } from '../../src/shared/modules';

/**
 * The module frame holds together: the modules' manifests are the one source of the contract's
 * endpoint list, the menu catalogue, the button keys, the log's operation types and the console's
 * screens, and nothing refers to what no manifest declares.
 */
const pages = MODULES.flatMap((m) => ('menu' in m ? m.menu.pages.map((p) => ({ ...p, menuId: m.menu.id, path: `/${m.menu.id}/${p.key}` })) : []));

describe('the modules', () => {
  it('own each of the 18 menus of spec §2 exactly once, with distinct jump keys', () => {
    const menus = MODULES.flatMap((m) => ('menu' in m ? [m.menu] : []));
    expect(menus.map((m) => m.id).sort()).toEqual([...MENU_IDS].sort());
    const keys = menus.map((m) => m.jumpKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.every((k) => /^[a-z]$/.test(k))).toBe(true);
    expect(() => menuCatalogue(CONTRACT_MODULES)).not.toThrow();
  });

  it('declare unique module ids, endpoint ids, routes, button keys and operation types', () => {
    const unique = (xs: string[]) => expect(xs.filter((x, i) => xs.indexOf(x) !== i)).toEqual([]);
    unique(MODULES.map((m) => m.id));
    unique(endpoints.map((e) => e.id));
    unique(endpoints.map((e) => `${e.method} ${e.path}`));
    unique(CONTRACT_MODULES.flatMap((m) => Object.keys(m.buttons)));
    unique(MODULES.flatMap((m) => Object.keys(m.operations)));
    unique(pages.map((p) => p.path));
    expect(BUTTON_KEYS.length).toBeGreaterThanOrEqual(10);
    expect(OPERATION_TYPES.LOGIN).toBe('登录');
  });

  it('grant only buttons some module declares', () => {
    for (const e of endpoints) {
      if (e.permission.kind !== 'grant') continue;
      for (const b of e.permission.buttons ?? []) expect(BUTTON_KEYS, e.id).toContain(b);
    }
  });
});

describe('the console’s screens', () => {
  it('exist for every page, and only for those', () => {
    const built = pages.map((p) => p.component);
    expect(Object.keys(SCREENS).sort()).toEqual([...new Set(built)].sort());
    // Each feature offers screens no other feature offers.
    const offered = FEATURES.flatMap((f) => Object.keys(f.screens));
    expect(new Set(offered).size).toBe(offered.length);
  });

  it('are opened by commands only at paths some page has', async () => {
    const known = new Set(pages.map((p) => p.path));
    const visited: string[] = [];
    const ctx: CommandContext = {
      navigate: (path) => visited.push(path),
      setDistrict: () => undefined,
      changed: () => undefined,
      shell: () => undefined,
    };
    const commands = COMMANDS;
    // A command that loads its code first (an export's queue) is let finish here, not after the test's end.
    const running: Promise<unknown>[] = [];
    for (const c of commands) {
      const args = Object.fromEntries((c.args ?? []).map((a) => [a.name, a.kind === 'datetime' ? '2026-11-23 08:00' : 'x']));
      const before = visited.length;
      const ran: unknown = c.run(ctx, args);
      if (ran instanceof Promise) running.push(ran.catch(() => undefined));
      for (const path of visited.slice(before)) {
        const { pathname, searchParams } = new URL(path, 'http://console');
        expect(known, `${c.id} → ${path}`).toContain(pathname);
        // An action the page does not declare would be dropped silently by the screen.
        const action = searchParams.get('action');
        const page: PageDef | undefined = pages.find((p) => p.path === pathname);
        if (action) expect(page?.actions ?? [], `${c.id} → ${path}`).toContain(action);
        // The page it declares is the one it opens: the palette and the hotkeys offer a command by
        // that declaration, so a command opening another page could lead an account to /404.
        expect(c.page, `${c.id} → ${path}`).toBe(pathname);
      }
      if (c.page !== null) expect(known, c.id).toContain(c.page);
    }
    await Promise.all(running);
    expect(visited.length).toBeGreaterThan(0);
  });

  it('are named by every record source as the page its rows open', () => {
    const known = new Set(pages.map((p) => p.path));
    expect(SOURCES.length).toBeGreaterThan(5);
    for (const s of SOURCES) expect(known, s.id).toContain(s.page);
  });

  it("are all in the registry the shell fetches after it mounts: every feature's commands file", () => {
    // app/feature-commands.ts is a second list beside FEATURES (decision 162): a feature left out of
    // it would have screens and no palette commands, silently.
    const dir = path.resolve('src/client/features');
    const registry = fs.readFileSync(path.resolve('src/client/app/feature-commands.ts'), 'utf8');
    const withCommands = fs.readdirSync(dir).filter((f) => fs.existsSync(path.join(dir, f, 'commands.ts')));
    expect(withCommands.length).toBeGreaterThan(10);
    for (const f of withCommands) expect(registry, f).toContain(`from '../features/${f}/commands'`);
  });
});
