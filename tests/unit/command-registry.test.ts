import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS, SOURCES } from '../../src/client/app/feature-commands';
import { parseMode } from '../../src/client/commands/palette-rows';
import { boostsOf, readRecents, recordRecent, removeRecent } from '../../src/client/commands/recents';
import { RegistryError, allowedCommands, buildRegistry } from '../../src/client/commands/registry';
import { sniff } from '../../src/client/commands/sniff';
import type { Command } from '../../src/client/commands/types';
import { PUBLIC, ROLES, SELF, SESSION, type Permission } from '../../src/shared/api';
import { BUTTON_KEYS, endpoints } from '../../src/shared/api/contract';

/** DESIGN §5: commands are data, checked when the registry is built; recents, sniffing and modes. */

const cmd = (id: string, extra: Partial<Command> = {}): Command => ({
  id,
  title: id,
  group: '测试',
  permission: SESSION,
  page: null,
  run: () => undefined,
  ...extra,
});

describe('buildRegistry', () => {
  it('joins the sources in order', () => {
    const all = buildRegistry([cmd('a'), cmd('b')], [cmd('c')]);
    expect(all.map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });

  it('throws on a duplicate id, also across sources', () => {
    expect(() => buildRegistry([cmd('account.add'), cmd('account.add')])).toThrow(RegistryError);
    expect(() => buildRegistry([cmd('account.add')], [cmd('x')], [cmd('account.add')])).toThrow(/account\.add/);
  });

  it('throws on a hotkey bound twice in one scope (case-insensitive, unscoped means global)', () => {
    expect(() => buildRegistry([cmd('a', { hotkey: 'Ctrl+B' }), cmd('b', { hotkey: 'Ctrl+B' })])).toThrow(RegistryError);
    expect(() => buildRegistry([cmd('a', { hotkey: 'Ctrl+B' })], [cmd('b', { hotkey: 'ctrl+b' })])).toThrow(/Ctrl\+B|ctrl\+b/);
    expect(() => buildRegistry([cmd('a', { hotkey: 'j' }), cmd('b', { hotkey: 'j', hotkeyScope: 'global' })])).toThrow(RegistryError);
    expect(() => buildRegistry([cmd('a', { hotkey: 'j', hotkeyScope: 'table' }), cmd('b', { hotkey: 'j', hotkeyScope: 'table' })])).toThrow(RegistryError);
  });

  it('allows the same key in different scopes, and commands without a hotkey', () => {
    const all = buildRegistry([
      cmd('global.j', { hotkey: 'j' }),
      cmd('table.j', { hotkey: 'j', hotkeyScope: 'table' }),
      cmd('dialog.j', { hotkey: 'j', hotkeyScope: 'dialog' }),
      cmd('none.1'),
      cmd('none.2'),
    ]);
    expect(all).toHaveLength(5);
  });
});

describe('the console’s real commands', () => {
  /** Every permission the contract declares: the constants and each endpoint's own object. */
  const declared: readonly Permission[] = [PUBLIC, SESSION, SELF, ...endpoints.map((e) => e.permission)];

  it('build without throwing, with unique ids and Chinese titles', () => {
    expect(COMMANDS.length).toBeGreaterThan(5);
    expect(new Set(COMMANDS.map((c) => c.id)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) expect(c.title, c.id).toMatch(/[\u4e00-\u9fff]/);
    // Rebuilding the real list from itself refuses it: the check is live, not skipped.
    expect(() => buildRegistry(COMMANDS, COMMANDS)).toThrow(RegistryError);
  });

  it('every command’s and every source’s permission is one of the contract’s declarations', () => {
    for (const { id, permission } of [...COMMANDS, ...SOURCES]) {
      expect(['public', 'session', 'self', 'grant'], id).toContain(permission.kind);
      // The very object the server checks, not a look-alike typed by hand.
      expect(declared.includes(permission), `${id}: ${JSON.stringify(permission)}`).toBe(true);
      if (permission.kind === 'grant') {
        for (const r of permission.roles ?? []) expect(ROLES, id).toContain(r);
        for (const b of permission.buttons ?? []) expect(BUTTON_KEYS, id).toContain(b);
      }
    }
  });

  it('add-account is hidden from a read-only account and shown to the account with USER_ADD', () => {
    const ids = (roles: string[], buttons: string[]) => allowedCommands(COMMANDS, { roles, buttons }).map((c) => c.id);
    expect(ids(['ROLE_USER'], [])).not.toContain('account.add');
    expect(ids(['ROLE_USER'], [])).toContain('shell.logout');
    expect(ids(['ROLE_ADMIN'], ['USER_ADD'])).toContain('account.add');
    expect(ids(['ROLE_APP_ADMIN'], [])).toEqual(COMMANDS.map((c) => c.id));
    expect(allowedCommands(COMMANDS, null)).toEqual([]);
  });
});

describe('recents', () => {
  beforeEach(() => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, String(v)),
      removeItem: (k: string) => void store.delete(k),
      clear: () => store.clear(),
      key: (i: number) => [...store.keys()][i] ?? null,
      get length() {
        return store.size;
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const item = (key: string) => ({ key, title: key, group: '命令' });

  it('records, counts and keeps the most recent first', () => {
    expect(readRecents('admin')).toEqual([]);
    recordRecent('admin', item('page:/user/user-list'), 1_000);
    recordRecent('admin', item('command:account.add'), 2_000);
    recordRecent('admin', item('page:/user/user-list'), 3_000);
    const list = readRecents('admin');
    expect(list.map((r) => [r.key, r.count, r.lastUsed])).toEqual([
      ['page:/user/user-list', 2, 3_000],
      ['command:account.add', 1, 2_000],
    ]);
  });

  it('keeps each user’s list apart, and at most 20 entries', () => {
    for (let i = 0; i < 25; i++) recordRecent('admin', item(`k${i}`), i);
    recordRecent('viewer', item('only-viewer'), 1);
    const admin = readRecents('admin');
    expect(admin).toHaveLength(20);
    expect(admin[0]?.key).toBe('k24');
    expect(admin.at(-1)?.key).toBe('k5');
    expect(readRecents('viewer').map((r) => r.key)).toEqual(['only-viewer']);
  });

  it('removes one entry and leaves the others in order', () => {
    recordRecent('admin', item('a'), 1);
    recordRecent('admin', item('b'), 2);
    recordRecent('admin', item('c'), 3);
    removeRecent('admin', 'b');
    expect(readRecents('admin').map((r) => r.key)).toEqual(['c', 'a']);
    removeRecent('admin', 'missing');
    expect(readRecents('admin').map((r) => r.key)).toEqual(['c', 'a']);
  });

  it('reads a corrupt stored value as no recents', () => {
    localStorage.setItem('bus-console.recents.admin', '{not json');
    expect(readRecents('admin')).toEqual([]);
    localStorage.setItem('bus-console.recents.admin', '{"a":1}');
    expect(readRecents('admin')).toEqual([]);
  });

  it('boostsOf: used more often or more lately ranks higher, and every boost is within 0–1', () => {
    const now = 10 * 86_400_000;
    const boosts = boostsOf(
      [
        { key: 'often', title: '', group: '', count: 15, lastUsed: now - 1000 },
        { key: 'once', title: '', group: '', count: 1, lastUsed: now - 1000 },
        { key: 'old', title: '', group: '', count: 15, lastUsed: now - 5 * 86_400_000 },
      ],
      now,
    );
    const b = (k: string) => boosts.get(k) ?? Number.NaN;
    expect(b('often')).toBeGreaterThan(b('once'));
    expect(b('often')).toBeGreaterThan(b('old'));

    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        // From years ago to a clock that moved back by up to three days.
        fc.integer({ min: -3 * 86_400_000, max: 4_000 * 86_400_000 }),
        (count, age) => {
          const value = boostsOf([{ key: 'k', title: '', group: '', count, lastUsed: now - age }], now).get('k');
          return value !== undefined && value > 0 && value < 1;
        },
      ),
    );
  });
});

describe('sniff', () => {
  const kinds = (s: string) => sniff(s).map((x) => x.kind);

  it('offers a valid citizen id (X in either case) as citizen-id, not as a card', () => {
    expect(sniff('11010519491231002X')).toEqual([{ kind: 'citizen-id', value: '11010519491231002X' }]);
    expect(sniff(' 11010519491231002x ')).toEqual([{ kind: 'citizen-id', value: '11010519491231002X' }]);
  });

  it('does not offer an id with a wrong check digit, unknown province or impossible date as a citizen id', () => {
    expect(kinds('110105194912310021')).not.toContain('citizen-id');
    expect(kinds('11010519491231002Y')).toEqual([]);
    expect(kinds('99010519491231002X')).not.toContain('citizen-id');
    expect(kinds('11010519490231002X')).not.toContain('citizen-id');
  });

  it('flags an id-shaped number with a wrong check character instead of offering it as a card', () => {
    expect(sniff('110105194912310021')).toEqual([{ kind: 'bad-citizen-id', value: '110105194912310021' }]);
    expect(kinds('110105194912310021')).not.toContain('card');
  });

  it('reads phone numbers written with spaces, dashes or +86', () => {
    for (const written of ['138 0013 8001', '138-0013-8001', '+86 138 0013 8001', '8613800138001']) {
      expect(sniff(written).find((s) => s.kind === 'phone')?.value).toBe('13800138001');
    }
  });

  it('offers an 11-digit mobile number as a phone', () => {
    expect(kinds('13800138001')).toContain('phone');
    expect(sniff('13800138001').find((s) => s.kind === 'phone')?.value).toBe('13800138001');
    expect(kinds('12800138001')).not.toContain('phone');
    expect(kinds('1380013800')).not.toContain('phone');
  });

  it('offers a long digit string as a card, and nothing for words', () => {
    expect(kinds('31010000123456789')).toEqual(['card']);
    expect(kinds('1234567')).toEqual([]);
    expect(kinds('123456789012345678901')).toEqual([]);
    expect(kinds('zhlb')).toEqual([]);
    expect(kinds('')).toEqual([]);
  });

  it('offers two letters and a long number as an order, upper-cased', () => {
    expect(sniff('dc202609180000099')).toEqual([{ kind: 'order', value: 'DC202609180000099' }]);
    expect(kinds('DC2026')).toEqual([]);
    expect(kinds('xhq2026091800000')).toEqual([]);
  });
});

describe('parseMode', () => {
  it.each([
    ['>新增', 'commands', '新增'],
    ['> xzzh ', 'commands', 'xzzh'],
    ['/zhlb', 'pages', 'zhlb'],
    ['#71路', 'stations', '71路'],
    ['@13800138001', 'riders', '13800138001'],
    ['  zhlb ', 'all', 'zhlb'],
    ['', 'all', ''],
    ['a>b', 'all', 'a>b'],
  ])('%j → %s %j', (raw, mode, text) => {
    expect(parseMode(raw)).toEqual({ mode, text });
  });
});

describe('common verbs (issue 21)', () => {
  it('jb, tk, sx and hb put 解绑亲情卡, 订单退款, 设置版本上线时间 and 合并站点 first among the commands', async () => {
    const { romanize } = await import('../../src/shared/domain/pinyin');
    const { buildIndex, createSearcher } = await import('../../src/shared/domain/search');
    const search = createSearcher(buildIndex(COMMANDS.map((c) => ({ id: c.id, title: c.title, keywords: c.keywords })), romanize));
    const first = (q: string) => search(q, { limit: 3 }).map((m) => m.id)[0];
    expect(first('jb')).toBe('family.unbind');
    expect(first('tk')).toBe('discount.refund');
    expect(first('sx')).toBe('version.set-online-time');
    expect(['station.merge', 'station.merge-duplicates']).toContain(first('hb'));
  });
});
