import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';
import { verifyPassword } from '../../src/server/lib/password';

/** `npm run create-admin` as an operator runs it on a database without demo accounts. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'create-admin-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function createAdmin(env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|TEST_DATABASE_URL|VITEST|npm_)/.test(k)));
  return spawnSync('npm', ['run', '--silent', 'create-admin'], {
    env: { ...clean, DATA_DIR: dataDir, SEED_DEMO: 'false', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm run create-admin', () => {
  it('refuses a weak password in Chinese and creates nothing', () => {
    const run = createAdmin({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'short' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('密码至少8位');
  });

  it('creates the first super user, once, with an audit row', async () => {
    const first = createAdmin({ ADMIN_LOGIN: 'Root', ADMIN_PASSWORD: 'Str0ngPassw0rd' });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('已创建超级管理员 root');
    const again = createAdmin({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'Str0ngPassw0rd' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('账号 root 已存在');

    const database = await openDatabase({ dataDir });
    try {
      const users = await database.db.select().from(t.users);
      expect(users.map((u) => [u.login, u.authorities, u.openDistrict])).toEqual([['root', ['ROLE_APP_ADMIN'], true]]);
      expect(await verifyPassword('Str0ngPassw0rd', users[0]?.passwordHash ?? '')).toBe(true);
      const logs = await database.db.select().from(t.sysLog).where(eq(t.sysLog.operationType, 'USER_ADD'));
      expect(logs.map((l) => l.target)).toEqual(['root']);
    } finally {
      await database.close();
    }
  });
});
