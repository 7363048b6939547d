import { sql } from 'drizzle-orm';
import type { LadderRow } from '../../../shared/custom/refund-ladder';
import { DEFAULT_LADDER } from '../../../shared/custom/refund-ladder';
import { DAY_MS, type SeedGenerator } from '../../db/seed/context';
import * as t from '../../db/schema';
import { BASE_DEFAULTS } from './read';
import { customBaseSettings, customRefundRules } from './schema';

/**
 * The ladder before the current one (已失效): a flat 10% from 20 minutes, so the history shows a
 * real change and orders sold under it (定制公交's seed) refund differently from today's.
 */
export const OLD_LADDER: readonly LadderRow[] = [
  { fromMin: 0, toMin: 20, refundable: 0, feeRate: 0, minFee: 0 },
  { fromMin: 20, toMin: null, refundable: 1, feeRate: 100, minFee: 100 },
];

/** The draft in 徐汇区: 30% under two hours, with a minimum fee of 2 yuan. */
const DRAFT_LADDER: readonly LadderRow[] = [
  { fromMin: 0, toMin: 30, refundable: 0, feeRate: 0, minFee: 0 },
  { fromMin: 30, toMin: 120, refundable: 1, feeRate: 300, minFee: 200 },
  { fromMin: 120, toMin: 1440, refundable: 1, feeRate: 100, minFee: 0 },
  { fromMin: 1440, toMin: null, refundable: 1, feeRate: 0, minFee: 0 },
];

/** The three districts (by their order in the city's list) whose base differs from the defaults. */
const DIFFERENT: Record<number, Partial<typeof BASE_DEFAULTS>> = {
  0: { saleDaysAhead: 14, payTimeoutMin: 5, boardingNotice: '请提前5分钟到站候车，凭电子票上车。' },
  2: { maxSeatsPerUserPerClass: 2, monthTicketEnabled: false },
  10: { saleOpenTime: 9 * 3600, stopSaleMinBefore: 30, servicePhone: '021-96900' },
};

const NOTICE = '1. 每人每班次限购4张；2. 请提前10分钟到站候车，凭电子票扫码上车；3. 发车前20分钟内不可退票。';

/**
 * §13: one base row per district (3 differ from the defaults), per district one 已失效 ladder and
 * one 生效中 (the default), and one draft in 徐汇区: a few dozen rows in two statements.
 */
export const customSettingDemoSeed: SeedGenerator[] = [
  {
    name: 'custom-settings',
    async run({ db, now }) {
      const districts = await db.select({ id: t.districts.id, name: t.districts.name }).from(t.districts).orderBy(t.districts.sort, t.districts.id);
      const [admin] = await db.select({ id: t.users.id }).from(t.users).where(sql`${t.users.login} = 'admin'`);
      const by = admin?.id ?? null;
      const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
      await db.insert(customBaseSettings).values(districts.map((d, i) => ({ districtId: d.id, ...BASE_DEFAULTS, boardingNotice: NOTICE, servicePhone: '021-12319', ...DIFFERENT[i], updatedBy: by, updatedAt: at(30) })));
      const xuhui = districts.find((d) => d.name === '徐汇区');
      await db.insert(customRefundRules).values([
        ...districts.flatMap((d) => [
          { districtId: d.id, rows: [...OLD_LADDER], status: 3, effectiveAt: at(180), remark: '旧版：发车前20分钟外统一扣10%', createdBy: by, publishedBy: by, createdAt: at(181), updatedAt: at(60) },
          { districtId: d.id, rows: [...DEFAULT_LADDER], status: 2, effectiveAt: at(60), remark: '现行：按距发车时间分档', createdBy: by, publishedBy: by, createdAt: at(61), updatedAt: at(60) },
        ]),
        ...(xuhui ? [{ districtId: xuhui.id, rows: [...DRAFT_LADDER], status: 0, effectiveAt: null, remark: '草稿：提高两小时内手续费', createdBy: by, publishedBy: null, createdAt: at(2), updatedAt: at(2) }] : []),
      ]);
    },
  },
];
