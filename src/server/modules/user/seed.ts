import { eq } from 'drizzle-orm';
import { type MenuId, menuCatalogue, menuItemIds as itemsOfMenus } from '../../../shared/api';
import { CONTRACT_MODULES } from '../../../shared/api/contract';
import type { Db } from '../../db/connection';
import * as t from '../../db/schema';
import { GIVEN_NAMES, SURNAMES } from '../../db/seed/city';
import { DAY_MS, DEMO_PASSWORD, type SeedGenerator } from '../../db/seed/context';
import { hashPassword } from '../../lib/password';

/** The four role groups every database starts with, and the demo staff of the demo city. */
export const GROUPS = {
  super: { name: '超级管理员组', description: '全部菜单与按钮' },
  manager: { name: '区域管理员组', description: '本区域的全部业务与账号管理' },
  agent: { name: '客服坐席组', description: '查询乘客、卡片、乘车记录、储值、充值、套餐与定制公交订单，办理亲情卡业务与验票，审核验卡与办卡申请，处理意见反馈；不含退款' },
  viewer: { name: '只读组', description: '只能查看，不能修改' },
} as const;

/** What the read-only group sees: rides, stations, lines and versions (no desk, no accounts). */
export const VIEWER_MENUS: readonly MenuId[] = ['order', 'station', 'bus', 'version'];

/** The menu catalogue, from the modules' manifests (src/shared/modules). */
const catalogue = () => menuCatalogue(CONTRACT_MODULES);
const menuItemIds = (menuIds: readonly MenuId[]) => itemsOfMenus(catalogue(), menuIds);

const GROUP_ITEMS: Record<keyof typeof GROUPS, () => string[]> = {
  super: () => catalogue().map((r) => r.id),
  // Districts are city-wide: only the super user manages them.
  manager: () => catalogue().map((r) => r.id).filter((id) => id !== 'settings.districts'),
  // A call is about a card's money too: the agent reads 储值, NFC充值 and 套餐 (refunds and 核实 stay the managers').
  // 定制公交: the agent answers riders' calls about their tickets and checks them (验票); refunds, cancelling and scheduling stay the managers'.
  // The review queues (验卡, 办卡) and feedback triage are the desk's daily work (second wave §1); revoking, shipping and settings stay the managers'.
  agent: () => [
    ...menuItemIds(['order', 'busUser', 'callingCard', 'specialCode', 'handleCard', 'cardVerify', 'noticeReport', 'rechargeable', 'recharge', 'packagePay', 'customBus', 'station', 'bus', 'version']),
    'ycOrder',
    'RIDER_REVEAL',
    'RIDER_ADD',
    'FAMILY_CARD_EDIT',
    'WALLET_ADJUST',
    'CUSTOM_TICKET_CHECK',
    'FEEDBACK_HANDLE',
    'CARD_VERIFY_AUDIT',
    'HANDLE_CARD_AUDIT',
  ],
  viewer: () => menuItemIds(VIEWER_MENUS),
};

const groupId = async (db: Db, key: keyof typeof GROUPS) => {
  const [g] = await db.select({ id: t.roleGroups.id }).from(t.roleGroups).where(eq(t.roleGroups.name, GROUPS[key].name));
  if (!g) throw new Error(`group ${key} missing`);
  return g.id;
};

/** Base: the role groups, created once; existing groups keep the items an administrator gave them. */
export const userBaseSeed: SeedGenerator[] = [
  {
    name: 'role-groups',
    async run({ db, now }) {
      for (const [key, g] of Object.entries(GROUPS) as [keyof typeof GROUPS, (typeof GROUPS)[keyof typeof GROUPS]][]) {
        const [row] = await db
          .insert(t.roleGroups)
          .values({ ...g, createdAt: now, updatedAt: now })
          .onConflictDoNothing()
          .returning({ id: t.roleGroups.id });
        // Existing groups keep the items an administrator gave them.
        if (!row) continue;
        const items = GROUP_ITEMS[key]();
        await db.insert(t.roleGroupItems).values(items.map((itemId) => ({ groupId: row.id, itemId })));
      }
    },
  },
];

/** Demo: the five demo accounts and the extra staff, in the demo city's districts. */
export const userDemoSeed: SeedGenerator[] = [
  {
    name: 'staff',
    async run({ db, rng, now, profile, passwordMaxAgeDays }) {
      const districts = await db.select().from(t.districts).orderBy(t.districts.sort);
      const [home, second] = [districts[0], districts[1] ?? districts[0]];
      if (!home || !second) throw new Error('staff need districts');
      const hash = await hashPassword(DEMO_PASSWORD, rng.bytes(16));
      const recent = new Date(now.getTime() - 10 * DAY_MS);
      const base = { passwordHash: hash, activated: true, createdAt: recent, updatedAt: recent, passwordChangedAt: recent };
      await db.insert(t.users).values([
        { ...base, login: 'admin', firstName: '系统管理员', authorities: ['ROLE_APP_ADMIN'], groupId: await groupId(db, 'super'), districtId: home.id, openDistrict: true },
        { ...base, login: 'manager', firstName: '徐汇区管理员', authorities: ['ROLE_ADMIN'], groupId: await groupId(db, 'manager'), districtId: second.id },
        { ...base, login: 'agent', firstName: '客服小李', phone: '13800138001', authorities: ['ROLE_USER'], groupId: await groupId(db, 'agent'), districtId: second.id },
        { ...base, login: 'viewer', firstName: '只读观察员', authorities: ['ROLE_USER'], groupId: await groupId(db, 'viewer'), districtId: second.id },
        {
          ...base,
          login: 'expired',
          firstName: '密码过期用户',
          authorities: ['ROLE_USER'],
          groupId: await groupId(db, 'viewer'),
          districtId: second.id,
          passwordChangedAt: new Date(now.getTime() - (passwordMaxAgeDays + 30) * DAY_MS - 5 * 3_600_000),
        },
      ]);
      const groups = [await groupId(db, 'agent'), await groupId(db, 'viewer')];
      const extra = Array.from({ length: profile.extraStaff }, (_, i) => {
        const created = new Date(now.getTime() - rng.int(20, 400) * DAY_MS);
        return {
          ...base,
          login: `staff${String(i + 1).padStart(3, '0')}`,
          firstName: rng.pick(SURNAMES) + rng.pick(GIVEN_NAMES),
          phone: `139${String(rng.int(0, 99_999_999)).padStart(8, '0')}`,
          activated: rng.next() > 0.15,
          authorities: ['ROLE_USER'],
          groupId: rng.pick(groups),
          districtId: rng.pick(districts).id,
          createdAt: created,
          updatedAt: created,
          passwordChangedAt: created,
        };
      });
      if (extra.length) await db.insert(t.users).values(extra);
    },
  },
];
