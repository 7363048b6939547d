import { renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import { jumpCommands, shellCommands, switchDistrictCommand } from '../../src/client/app/commands';
import { COMMANDS } from '../../src/client/app/feature-commands';
import { buildMenus } from '../../src/client/app/menus';
import { type HotkeyBinding, useHotkeyDispatcher } from '../../src/client/commands/dispatcher';
import { keyLabel } from '../../src/client/commands/keys';
import { buildRegistry } from '../../src/client/commands/registry';
import { menuCatalogue } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';

/** Hotkeys are data: every one is a command's, bound by one dispatcher from the registry. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

describe('the dispatcher', () => {
  it('runs the command whose key is pressed, only when its `when` allows, and not while paused', async () => {
    const ran: string[] = [];
    let allowed = false;
    const bindings: HotkeyBinding[] = [
      { hotkey: 'ctrl+b', run: () => ran.push('sidebar') },
      { hotkey: 'x', run: () => ran.push('x'), when: () => allowed },
      { hotkey: 'g>u', run: () => ran.push('jump') },
      { hotkey: '?', run: () => ran.push('help') },
    ];
    const { rerender } = renderHook(({ paused }) => useHotkeyDispatcher(bindings, paused), { initialProps: { paused: false } });
    const user = userEvent.setup();
    await user.keyboard('{Control>}b{/Control}');
    await user.keyboard('x');
    allowed = true;
    await user.keyboard('x');
    await user.keyboard('gu');
    await user.keyboard('?');
    expect(ran).toEqual(['sidebar', 'x', 'jump', 'help']);
    rerender({ paused: true });
    await user.keyboard('{Control>}b{/Control}');
    expect(ran).toHaveLength(4);
  });

  it('one key means different things by scope: on a table row, inside a dialog, elsewhere', async () => {
    const ran: string[] = [];
    const bindings: HotkeyBinding[] = [
      { hotkey: 'x', run: () => ran.push('global') },
      { hotkey: 'x', scope: 'table', run: () => ran.push('table') },
      { hotkey: 'x', scope: 'dialog', run: () => ran.push('dialog') },
    ];
    const { rerender } = renderHook(({ paused }) => useHotkeyDispatcher(bindings, paused), { initialProps: { paused: false } });
    const fixture = document.createElement('div');
    fixture.innerHTML = '<table><tbody><tr tabindex="0" id="row"><td>1</td></tr></tbody></table><div role="dialog"><button id="inside">ok</button></div><button id="outside">x</button>';
    document.body.append(fixture);
    onTestFinished(() => fixture.remove());
    const user = userEvent.setup();
    for (const id of ['row', 'outside', 'inside']) {
      document.getElementById(id)?.focus();
      await user.keyboard('x');
    }
    // The first binding whose scope holds the focused element runs: a row is in the page too.
    expect(ran).toEqual(['global', 'global', 'dialog']);
    ran.length = 0;
    // While a dialog holds the keyboard (paused), only its own keys answer.
    rerender({ paused: true });
    for (const id of ['row', 'inside']) {
      document.getElementById(id)?.focus();
      await user.keyboard('x');
    }
    expect(ran).toEqual(['table', 'dialog']);
  });

  it('shows keys in the console’s notation', () => {
    expect(['mod+k', 'ctrl+b', '?', 'g>u'].map(keyLabel)).toEqual(['Ctrl+K', 'Ctrl+B', '?', 'g u']);
  });

  it('cannot bind one key twice: the registry with every module jump holds', () => {
    const jumps = jumpCommands(buildMenus(menuCatalogue(CONTRACT_MODULES), ['ROLE_APP_ADMIN']));
    expect(jumps).toHaveLength(18);
    expect(() => buildRegistry(COMMANDS, jumps)).not.toThrow();
    expect(() => buildRegistry(shellCommands, [{ ...switchDistrictCommand, id: 'other', hotkey: 'ctrl+b' }])).toThrow(/ctrl\+b/i);
  });
});

describe('in the console', () => {
  it('`?` lists every hotkey from the registry, Ctrl+B folds the menu, g then u opens 账号管理, Ctrl+K works while typing', async () => {
    await signIn(s, 'manager');
    visit(s, '/settings/agreements');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' });

    await user.keyboard('?');
    const sheet = await screen.findByRole('dialog', { name: '快捷键一览' });
    for (const [what, keys] of [
      ['打开命令面板', 'Ctrl+K'],
      ['展开/收起菜单', 'Ctrl+B'],
      ['账号管理', 'g u'],
    ]) {
      const rows = within(sheet).getAllByText(what as string).map((e) => e.closest('div')?.textContent ?? '');
      expect(rows.some((r) => r.includes(keys as string)), `${what} ${keys}`).toBe(true);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const before = document.cookie;
    await user.keyboard('{Control>}b{/Control}');
    await waitFor(() => expect(document.cookie).not.toBe(before));

    await user.keyboard('gu');
    await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));

    const filter = await waitFor(() => {
      const input = document.querySelector<HTMLInputElement>('main input');
      if (!input) throw new Error('no filter box yet');
      return input;
    });
    await user.click(filter);
    await user.keyboard('{Control>}k{/Control}');
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });
});

describe('the session-ended notice is the top of the stack', () => {
  it('an arriving 401 closes the palette beneath it; then no palette, hotkey or command opens anything', async () => {
    // The notice's own load of /login (a second after it shows) is not what this test looks at.
    const loads: string[] = [];
    vi.spyOn(window.location, 'assign').mockImplementation((url) => loads.push(String(url)));
    await signIn(s, 'manager');
    visit(s, '/user/user-list');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' });
    await user.keyboard('?');
    await screen.findByRole('dialog', { name: '快捷键一览' });
    await user.keyboard('{Escape}');

    // The same account logs in elsewhere; the palette's record lists then meet the 401.
    await s.login('manager');
    await user.keyboard('{Control>}k{/Control}');
    const notice = await screen.findByRole('dialog', { name: '账号已在其他地方登录' }, { timeout: 5_000 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '命令面板' })).toBeNull());

    for (const keys of ['{Control>}k{/Control}', '?', '{Control>}b{/Control}', 'gu']) await user.keyboard(keys);
    expect(screen.getAllByRole('dialog')).toEqual([notice]);
    expect(window.location.pathname).toBe('/user/user-list');
    expect(loads.every((url) => url.startsWith('/login?'))).toBe(true);
  });
});

describe('focus follows the hands', () => {
  it('after a sidebar link, focus is on the main region, where j focuses the first row and / the first filter', async () => {
    await signIn(s, 'admin');
    visit(s, '/settings/agreements');
    const { user } = renderWithUser(<App />);
    const nav = await screen.findByRole('navigation', { name: '主菜单' });
    if (!within(nav).queryByRole('link', { name: /账号列表/ })) await user.click(within(nav).getByRole('button', { name: /账号管理/ }));
    const link = await within(nav).findByRole('link', { name: /账号列表/ });
    link.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));
    await waitFor(() => expect(document.activeElement?.id).toBe('main'));
    // The rows of the list, once they arrived (focus stays on main meanwhile).
    await waitFor(() => expect(document.querySelectorAll('main tr[tabindex]').length).toBeGreaterThan(0), { timeout: 5_000 });
    expect(document.activeElement?.id).toBe('main');
    await user.keyboard('j');
    expect(document.activeElement?.tagName).toBe('TR');
    expect(document.activeElement?.textContent).toMatch(/\S/);

    (document.getElementById('main') as HTMLElement).focus();
    await user.keyboard('/');
    expect(document.activeElement?.hasAttribute('data-filter')).toBe(true);
  });
});
