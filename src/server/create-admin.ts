/**
 * Creates the first super user on a real database, where no demo accounts exist:
 *   ADMIN_LOGIN=root ADMIN_PASSWORD='...' [ADMIN_NAME=管理员] npm run create-admin
 */
import { eq } from 'drizzle-orm';
import { newPassword, login as loginField } from '../shared/api/fields';
import { openAndPrepare } from './boot';
import { loadConfig, systemClock } from './config';
import * as t from './db/schema';
import { GROUPS } from './modules/user/seed';
import { audit } from './lib/audit';
import { hashPassword } from './lib/password';

const config = loadConfig();
const login = loginField.safeParse(process.env.ADMIN_LOGIN ?? '');
const password = newPassword.safeParse(process.env.ADMIN_PASSWORD ?? '');
if (!login.success || !password.success) {
  console.error('用法: ADMIN_LOGIN=<用户名> ADMIN_PASSWORD=<至少8位，含字母和数字> npm run create-admin');
  for (const r of [login, password]) if (!r.success) console.error(`  ${r.error.issues[0]?.message}`);
  process.exit(2);
}
const { database } = await openAndPrepare({ ...config, seedDemo: false }, systemClock, (m) => console.error(m));
try {
  const db = database.db;
  const name = login.data.toLowerCase();
  const [exists] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.login, name));
  if (exists) {
    console.error(`账号 ${name} 已存在`);
    process.exitCode = 1;
  } else {
    const [group] = await db.select({ id: t.roleGroups.id }).from(t.roleGroups).where(eq(t.roleGroups.name, GROUPS.super.name));
    const now = systemClock.now();
    const hash = await hashPassword(password.data);
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(t.users)
        .values({
          login: name,
          firstName: process.env.ADMIN_NAME || '系统管理员',
          passwordHash: hash,
          authorities: ['ROLE_APP_ADMIN'],
          groupId: group?.id ?? null,
          openDistrict: true,
          passwordChangedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: t.users.id });
      await audit(tx, { id: null, login: 'create-admin', districtId: null, ip: null }, { type: 'USER_ADD', targetDistrictId: null, target: name, summary: `命令行创建超级管理员 ${name}`, after: { id: row?.id } }, now);
    });
    console.log(`已创建超级管理员 ${name}`);
  }
} finally {
  await database.close();
}
