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

/**
 * Rich content as the console's editor makes it (headings, lists, bold, links), one shape a type: what
 * the mini-program shows and the allow-list keeps whole (tests/server/notice.test.ts checks the seed
 * passes through it unchanged).
 */
const CONTENT: Record<1 | 2 | 3, readonly ((line: string) => string)[]> = {
  1: [
    () =>
      '<p>为保障市民出行，相关线路将按以下安排运营，请乘客合理安排出行时间。</p><h3>调整安排</h3><ul><li>早班车发车时间推迟<strong>30分钟</strong>；</li><li>末班车发车时间提前<strong>1小时</strong>；</li><li>高峰时段加密班次。</li></ul><p>如有疑问，请拨打公交服务热线 <a href="tel:12345">12345</a>。给您带来的不便，敬请谅解。</p>',
    () =>
      '<p>乘车码系统将于本周日凌晨 <strong>01:00–05:00</strong> 进行升级维护。</p><h3>维护期间</h3><ol><li>乘车码暂停生成，请使用公交卡或现金乘车；</li><li>充值、退款业务暂停办理；</li><li>维护结束后服务自动恢复，无需重新登录。</li></ol><p>详情见<a href="https://www.example.gov.cn/bus/notice">公交集团官网</a>。</p>',
    () =>
      '<h3>办理对象</h3><p>本市户籍年满60周岁的老年人。</p><h3>所需材料</h3><ul><li>本人身份证原件；</li><li>近期免冠照片一张；</li><li>原老年卡（年审时携带）。</li></ul><p>可在小程序「线上办卡」中在线提交，审核通过后邮寄到家。</p>',
  ],
  2: [
    () =>
      '<p>为进一步提升公交服务质量，现公布投诉与建议渠道：</p><ul><li>服务热线：<a href="tel:12345">12345</a>（24小时）；</li><li>小程序「意见反馈」；</li><li>电子邮箱：<a href="mailto:service@example.gov.cn">service@example.gov.cn</a>。</li></ul><p>我们将在<strong>3个工作日</strong>内答复。</p>',
    () =>
      '<p>本月起，首批<strong>新能源公交车</strong>投入运营，车内配备空调、USB 充电口和无障碍踏板。</p><blockquote>文明乘车，礼让老幼病残孕。</blockquote><p>欢迎市民乘坐体验并提出宝贵意见。</p>',
    () =>
      '<h3>遗失物品招领</h3><p>近期乘客在车内遗失物品若干，请失主携带有效证件到公交服务中心认领。</p><ol><li>认领地点：公交服务中心一楼；</li><li>认领时间：工作日 9:00–17:00。</li></ol>',
  ],
  3: [
    (line) =>
      `<p>因道路施工，<strong>${line}路</strong>自即日起临时绕行。</p><h3>绕行期间</h3><ul><li>原「人民路站」暂停使用；</li><li>临时站点设于人民路南侧50米处。</li></ul><p>请乘客留意车站告示及车内广播。</p>`,
    (line) =>
      `<p><strong>${line}路</strong>首末班时间调整如下：</p><ul><li>首班车：06:00（原 06:30）；</li><li>末班车：22:30（原 22:00）。</li></ul><p>调整自下周一起执行。</p>`,
  ],
};

function title(rng: Rng, type: 1 | 2 | 3, line: string): string {
  if (type === 3) return `${line}${rng.pick(NOTICES[3])}`;
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
      // Real lines of the network, so a 线路调整 notice names one a rider can find (seeded by 版本管理).
      const lines = (await db.selectDistinct({ code: t.busLines.code }).from(t.busLines).orderBy(asc(t.busLines.code))).map((l) => l.code);
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
        const line = lines.length ? rng.pick(lines) : `${rng.int(1, 999)}`;
        return {
          districtId,
          title: title(rng, type, line),
          type,
          content: rng.pick(CONTENT[type])(line),
          lineCodes: type === 3 && lines.length ? [line] : [],
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
