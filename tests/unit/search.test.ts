import { describe, expect, it } from 'vitest';
import { romanize } from '../../src/shared/domain/pinyin';
import { Tier, buildIndex, createSearcher, search } from '../../src/shared/domain/search';

const entries = [
  { id: 'hcz', title: '火车站' },
  { id: 'rmgc', title: '人民广场' },
  { id: 'cnq', title: '长宁区' },
  { id: 'cqyh', title: '重庆银行' },
  { id: 'xh', title: '徐汇区' },
  { id: 'b49', title: '49路公交' },
  { id: 'users', title: '账号列表', keywords: ['user list', '员工'] },
  { id: 'hcz2', title: '火车站南广场' },
];
const index = buildIndex(entries, romanize);
const ids = (q: string) => search(index, q).map((m) => m.id);

describe('palette ranking', () => {
  it('finds Chinese by its initials, full pinyin and characters', () => {
    expect(ids('hcz')[0]).toBe('hcz');
    expect(ids('huochezhan')[0]).toBe('hcz');
    expect(ids('火车')).toEqual(['hcz', 'hcz2']);
    expect(ids('rmgc')).toEqual(['rmgc']);
  });

  it('knows both readings of polyphonic characters', () => {
    expect(ids('changning')).toContain('cnq');
    expect(ids('zhangning')).toContain('cnq');
    expect(ids('znq')).toContain('cnq');
    expect(ids('chongqing')).toContain('cqyh');
    expect(ids('zqyh')).toContain('cqyh');
  });

  it('ranks exact over prefix over initials over substring over fuzzy, stably', () => {
    const r = search(index, '火车站');
    expect(r.map((m) => [m.id, m.tier])).toEqual([
      ['hcz', Tier.Exact],
      ['hcz2', Tier.Prefix],
    ]);
    expect(search(index, 'gc')[0]).toMatchObject({ id: 'rmgc', tier: Tier.Substring });
    expect(search(index, 'hczngc')[0]).toMatchObject({ id: 'hcz2', tier: Tier.Prefix });
    expect(search(index, 'hczn')[0]).toMatchObject({ id: 'hcz2', tier: Tier.Initials });
    expect(search(index, 'hozh')[0]).toMatchObject({ id: 'hcz', tier: Tier.Fuzzy });
  });

  it('handles digits, letters and 汉字 mixed, and keywords', () => {
    expect(ids('49')).toEqual(['b49']);
    expect(ids('49lu')).toEqual(['b49']);
    expect(ids('49路')).toEqual(['b49']);
    expect(ids('user')[0]).toBe('users');
    expect(ids('yg')).toContain('users');
  });

  it('lets recency lift an entry within its tier, never above a better tier', () => {
    const boosts = new Map([['hcz2', 0.9]]);
    expect(search(index, '火车', { boosts }).map((m) => m.id)).toEqual(['hcz2', 'hcz']);
    expect(search(index, '火车站', { boosts })[0]?.id).toBe('hcz');
  });

  it('narrows from the previous matches and answers the same as a full scan', () => {
    const searcher = createSearcher(index);
    for (const q of ['h', 'hc', 'hcz', 'hczn']) {
      expect(searcher(q).map((m) => m.id)).toEqual(search(index, q).map((m) => m.id));
    }
    expect(searcher('x').map((m) => m.id)).toEqual(search(index, 'x').map((m) => m.id));
  });

  it('answers nothing for an empty query', () => {
    expect(search(index, '   ')).toEqual([]);
  });

  it('ranks a title hit before a subtitle or keyword hit, and the closer title first, within a tier', () => {
    const staff = buildIndex(
      [
        { id: 'manager-row', title: '管理员（manager）', keywords: ['运营部 · 徐汇区'] },
        { id: 'long', title: '徐汇区公交停车场调度室' },
        { id: 'district', title: '徐汇区', keywords: ['310104'] },
      ],
      romanize,
    );
    // All three match `xh` by initials; the district's own title is the shortest hit in a title.
    expect(search(staff, 'xh').map((m) => m.id)).toEqual(['district', 'long', 'manager-row']);
    expect(search(staff, '徐汇').map((m) => m.id)).toEqual(['district', 'long', 'manager-row']);
  });

  it('ranks a title before an equal match in a keyword only: gj finds 公交… before GPS排序 (keyword 轨迹)', () => {
    const cmds = buildIndex(
      [
        { id: 'gps', title: 'GPS排序（按轨迹排列线路站点）', keywords: ['排序', 'gps', '轨迹'] },
        { id: 'lines', title: '公交线路' },
      ],
      romanize,
    );
    expect(search(cmds, 'gj').map((m) => m.id)).toEqual(['lines', 'gps']);
    // A keyword still finds what its title does not name.
    expect(ids('yg')).toEqual(['users']);
  });

  it('does not guess from two letters: fuzzy matching starts at three', () => {
    const cmds = buildIndex(
      [
        { id: 'add-line', title: '新增线路' },
        { id: 'edit', title: '修改密码' },
      ],
      romanize,
    );
    // x…g is inside xinzeng: a two-letter query keeps to the strong tiers (修改 = xg).
    expect(search(cmds, 'xg').map((m) => m.id)).toEqual(['edit']);
    expect(search(cmds, 'xzx').map((m) => m.id)).toEqual(['add-line']);
    expect(search(cmds, 'xng')[0]).toMatchObject({ id: 'add-line', tier: Tier.Fuzzy });
  });

  it('matches characters, letters and digits before the pinyin dictionary arrives', () => {
    const plain = buildIndex(entries);
    expect(search(plain, '火车').map((m) => m.id)).toEqual(['hcz', 'hcz2']);
    expect(search(plain, 'user')[0]?.id).toBe('users');
    expect(search(plain, 'hcz')).toEqual([]);
  });
});
