import { asc } from 'drizzle-orm';
import { DAY_MS, type SeedGenerator } from '../../db/seed/context';
import type { Rng } from '../../db/seed/rng';
import * as t from '../../db/schema';
import { notices } from './schema';

const HOUR_MS = 3_600_000;

const NOTICES = {
  1: ['关于春节期间公交运营时间调整的通知', '关于乘车码系统升级维护的通知', '关于老年卡年审工作的通知', '关于学生卡办理时间的通知', '关于台风天气公交停运安排的通知', '关于夜间线路恢复运营的通知'],
  2: ['公交服务质量投诉渠道公告', '新能源公交车投入运营公告', '乘车码优惠活动公告', '遗失物品招领公告', '文明乘车倡议公告', '公交卡充值网点调整公告'],
  3: ['路临时绕行公告', '路站点迁移公告', '路首末班时间调整公告', '路延伸运营公告'],
} as const;

const CONTENT = [
  '为保障市民出行，相关线路将按以下安排运营，请乘客合理安排出行时间。',
  '如有疑问，请拨打公交服务热线咨询。给您带来的不便，敬请谅解。',
  '请乘客留意车站告示及车内广播，配合驾驶员和站务人员做好乘车秩序维护。',
  '调整期间原站点暂停使用，请乘客至临时站点候车。',
];

function title(rng: Rng, type: 1 | 2 | 3): string {
  if (type === 3) return `${rng.int(1, 999)}${rng.pick(NOTICES[3])}`;
  return rng.pick(NOTICES[type]);
}

/** 60 notices, second wave §2: 6 city-wide, 5 scheduled, 8 withdrawn, 8 drafts, the rest published. */
const STATUSES: readonly number[] = [...Array<number>(8).fill(0), ...Array<number>(5).fill(1), ...Array<number>(39).fill(2), ...Array<number>(8).fill(3)];

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Demo: the notices of the city and its districts, written by each district's staff. */
export const noticeDemoSeed: SeedGenerator[] = [
  {
    name: 'notices',
    async run({ db, rng, now }) {
      const districts = await db.select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.sort), asc(t.districts.id));
      const staff = await db.select({ id: t.users.id, login: t.users.login, districtId: t.users.districtId }).from(t.users).orderBy(asc(t.users.id));
      const admin = staff.find((u) => u.login === 'admin') ?? staff[0];
      const authorIn = (districtId: number | null) => (districtId === null ? admin : (staff.find((u) => u.districtId === districtId && u.login !== 'admin') ?? admin))?.id ?? null;
      const statuses = shuffled(rng, STATUSES);
      const rows = statuses.map((status, i) => {
        const districtId = i < 6 || !districts.length ? null : districts[(i - 6) % districts.length]!.id;
        const type = rng.pick([1, 2, 2, 3] as const);
        const createdAt = new Date(now.getTime() - rng.int(2, 200) * DAY_MS);
        const published = status === 2 || status === 3 ? new Date(createdAt.getTime() + rng.int(1, 48) * HOUR_MS) : null;
        const publishAt = status === 1 ? new Date(now.getTime() + rng.int(2, 240) * HOUR_MS) : published;
        // Some published notices come down by themselves later; the withdrawn ones had run a while.
        const expireAt = status === 2 && rng.next() < 0.2 ? new Date(now.getTime() + rng.int(1, 60) * DAY_MS) : null;
        const author = authorIn(districtId);
        return {
          districtId,
          title: title(rng, type),
          type,
          content: Array.from({ length: rng.int(2, 4) }, () => rng.pick(CONTENT)).join('\n'),
          top: 0,
          status,
          publishAt,
          expireAt,
          viewCount: published ? rng.int(0, 5000) : 0,
          createdBy: author,
          publishedBy: status === 0 ? null : author,
          createdAt,
          updatedAt: published ?? createdAt,
        };
      });
      // Three pinned, each in its own area (the city-wide set first): under the limit everywhere.
      const areas = [null, districts[0]?.id, districts[1]?.id];
      for (const area of areas) {
        const row = rows.find((r) => r.status === 2 && r.districtId === area);
        if (row) row.top = 1;
      }
      await db.insert(notices).values(rows);
    },
  },
];
