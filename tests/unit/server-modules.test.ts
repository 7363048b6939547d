import { describe, expect, it } from 'vitest';
import { MODULES, system } from '../../src/shared/api';
import { SERVER_MODULES, bindModules } from '../../src/server/modules';
import type { AppDeps } from '../../src/server/context';
import type { Binder } from '../../src/server/plugins/contract';
import type { RouteContext, ServerModule } from '../../src/server/modules/module';

/** The server refuses to start when a module and its manifest disagree about the endpoints. */
const binder: Binder = { bind: () => undefined, bindPublic: () => undefined };
const deps = {} as AppDeps;
const ctx = {} as RouteContext;

describe('bindModules', () => {
  it('binds every module as declared', () => {
    expect(() => bindModules(binder, deps, ctx)).not.toThrow();
    expect(SERVER_MODULES.map((s) => s.id).every((id) => MODULES.some((m) => m.id === id))).toBe(true);
  });

  it('refuses a module that leaves a declared endpoint unbound', () => {
    const settings = SERVER_MODULES.find((s) => s.id === 'settings');
    if (!settings) throw new Error('settings module missing');
    const forgetful: ServerModule = {
      ...settings,
      routes: (b) => {
        settings.routes({ bind: (e, h) => (e.id === system.payInfoList.id ? undefined : b.bind(e, h)), bindPublic: b.bindPublic }, deps, ctx);
      },
    };
    const others = SERVER_MODULES.filter((s) => s.id !== 'settings');
    expect(() => bindModules(binder, deps, ctx, [...others, forgetful])).toThrow(/module settings binds/);
  });

  it('refuses a manifest with endpoints but no server module, and a server module with no manifest', () => {
    expect(() => bindModules(binder, deps, ctx, SERVER_MODULES.filter((s) => s.id !== 'user'))).toThrow(/module user declares endpoints/);
    const stray = { id: 'stray', routes: () => undefined } as unknown as ServerModule;
    expect(() => bindModules(binder, deps, ctx, [...SERVER_MODULES, stray])).toThrow(/stray has no manifest/);
  });
});

describe('table ownership', () => {
  it('every table has exactly one owner, a module or the frame itself', async () => {
    const { getTableName, isTable } = await import('drizzle-orm');
    const schema = await import('../../src/server/db/schema');
    const { FRAME_TABLES } = await import('../../src/server/db/seed');
    const claims = [...FRAME_TABLES, ...SERVER_MODULES.flatMap((m) => m.tables)].map((tb) => getTableName(tb));
    const all = Object.values(schema).filter((v) => isTable(v)).map((tb) => getTableName(tb as never));
    expect(all.filter((name) => !claims.includes(name))).toEqual([]);
    expect(claims.filter((name, i) => claims.indexOf(name) !== i)).toEqual([]);
  });
});
