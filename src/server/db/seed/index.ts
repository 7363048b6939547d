import { eq, sql } from 'drizzle-orm';
import { hashPassword } from '../../lib/password';
import type { Db } from '../connection';
import * as t from '../schema';
import { MODULES, menuCatalogue, menuItemIds as itemsOfMenus } from '../../../shared/api';
import type { MenuId } from '../../../shared/api';
import { CITY, DISTRICTS, GIVEN_NAMES, SURNAMES } from './city';
import { SERVER_MODULES } from '../../modules';
import { createRng, type Rng } from './rng';

export const DEMO_PASSWORD = 'Bus@2026';

export interface SeedProfile {
  name: 'demo' | 'small';
  districts: number;
  extraStaff: number;
}

export const PROFILES: Record<SeedProfile['name'], SeedProfile> = {
  demo: { name: 'demo', districts: DISTRICTS.length, extraStaff: 24 },
  small: { name: 'small', districts: 3, extraStaff: 4 },
};

export interface SeedContext {
  db: Db;
  rng: Rng;
  /** The anchor every seeded time is relative to (the app's clock, never the wall clock here). */
  now: Date;
  profile: SeedProfile;
  passwordMaxAgeDays: number;
}

/** A step of the seed. Later modules add their own (stations, lines, riders, cards, rides). */
export interface SeedGenerator {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}

export const GROUPS = {
  super: { name: '超级管理员组', description: '全部菜单与按钮' },
  manager: { name: '区域管理员组', description: '本区域的全部业务与账号管理' },
  agent: { name: '客服坐席组', description: '查询乘客、卡片、乘车记录，办理亲情卡业务；不含退款' },
  viewer: { name: '只读组', description: '只能查看，不能修改' },
} as const;

/** The menu catalogue, from the modules' manifests (src/shared/modules). */
const catalogue = () => menuCatalogue(MODULES);
const menuItemIds = (menuIds: readonly MenuId[]) => itemsOfMenus(catalogue(), menuIds);

const GROUP_ITEMS: Record<keyof typeof GROUPS, () => string[]> = {
  super: () => catalogue().map((r) => r.id),
  // Districts are city-wide: only the super user manages them.
  manager: () => catalogue().map((r) => r.id).filter((id) => id !== 'settings.districts'),
  agent: () => [...menuItemIds(['order', 'busUser', 'callingCard', 'specialCode', 'station', 'bus', 'version']), 'ycOrder'],
  viewer: () => menuItemIds(['order', 'station', 'bus', 'version']),
};

/** Reference data every database needs, demo or not: upserted at every start. */
export const baseGenerators: SeedGenerator[] = [
  {
    name: 'auth-items',
    async run({ db }) {
      // One statement for the whole catalogue: `excluded` is the row that was about to be inserted.
      await db
        .insert(t.authItems)
        .values(catalogue())
        .onConflictDoUpdate({
          target: t.authItems.id,
          set: {
            parentId: sql`excluded.parent_id`,
            name: sql`excluded.name`,
            path: sql`excluded.path`,
            para: sql`excluded.para`,
            type: sql`excluded.type`,
            sort: sql`excluded.sort`,
          },
        });
    },
  },
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
  {
    name: 'pay-info',
    async run({ db }) {
      const rows = [
        { code: 'wechat', name: '微信支付', sort: 1 },
        { code: 'alipay', name: '支付宝', sort: 2 },
        { code: 'unionpay', name: '云闪付', sort: 3 },
        { code: 'transport-card', name: '交通卡', sort: 4 },
      ];
      await db.insert(t.payInfo).values(rows).onConflictDoNothing();
    },
  },
];

const groupId = async (db: Db, key: keyof typeof GROUPS) => {
  const [g] = await db.select({ id: t.roleGroups.id }).from(t.roleGroups).where(eq(t.roleGroups.name, GROUPS[key].name));
  if (!g) throw new Error(`group ${key} missing`);
  return g.id;
};

const DAY_MS = 86_400_000;

/** The demo city: districts, staff accounts, agreements. Only when the database is empty. */
export const demoGenerators: SeedGenerator[] = [
  {
    name: 'city',
    async run({ db, profile }) {
      await db.insert(t.appConfig).values([
        { key: 'cityCenter', value: CITY },
        { key: 'qrCode', value: null },
      ]);
      await db.insert(t.districts).values(DISTRICTS.slice(0, profile.districts).map((d, i) => ({ ...d, sort: i + 1 })));
    },
  },
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
  {
    name: 'agreements',
    async run({ db, now }) {
      const districts = await db.select().from(t.districts);
      const kinds = [
        { code: 'user-service', title: '用户服务协议' },
        { code: 'privacy', title: '隐私政策' },
        { code: 'family-card', title: '亲情卡服务协议' },
      ];
      await db.insert(t.agreements).values(
        districts.flatMap((d) =>
          kinds.map((k) => ({
            districtId: d.id,
            code: k.code,
            title: `${d.name}${k.title}`,
            content: `${k.title}\n\n本协议适用于${CITY.name}${d.name}公交乘车码服务。使用服务前请仔细阅读本协议全部条款。`,
            createdAt: now,
            updatedAt: now,
          })),
        ),
      );
    },
  },
];

export interface SeedOptions {
  db: Db;
  now: Date;
  seed: number;
  demo: boolean;
  profile?: SeedProfile;
  passwordMaxAgeDays: number;
  extraGenerators?: SeedGenerator[];
}

/** Base data always; the demo city only on an empty database and only when asked. */
/** The modules' own seed steps, after the frame's (menus, role groups) and the demo city's. */
const moduleSeeds = (kind: 'base' | 'demo') => SERVER_MODULES.flatMap((m) => m.seed?.[kind] ?? []);

export async function runSeed(opts: SeedOptions): Promise<{ seededDemo: boolean }> {
  const ctx: SeedContext = {
    db: opts.db,
    rng: createRng(opts.seed),
    now: opts.now,
    profile: opts.profile ?? PROFILES.demo,
    passwordMaxAgeDays: opts.passwordMaxAgeDays,
  };
  for (const g of [...baseGenerators, ...moduleSeeds('base')]) await g.run(ctx);
  if (!opts.demo) return { seededDemo: false };
  const [row] = await opts.db.select({ n: sql<number>`count(*)::int` }).from(t.districts);
  if ((row?.n ?? 0) > 0) return { seededDemo: false };
  await opts.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx as unknown as Db };
    for (const g of [...demoGenerators, ...moduleSeeds('demo'), ...(opts.extraGenerators ?? [])]) await g.run(txCtx);
  });
  return { seededDemo: true };
}
