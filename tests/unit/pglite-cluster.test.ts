import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/connection';
import { CLUSTER_FOLDER, CLUSTER_MARK, clusterFile, pgliteVersion } from '../../src/server/db/pglite-cluster';

async function facts(database: Database) {
  const res = (await database.db.execute(
    sql`select current_setting('server_encoding') as enc, (select string_agg(datname, ',') from pg_database) as dbs, (select count(*)::int from pg_class where relnamespace = 'public'::regnamespace) as ours`,
  )) as unknown as { rows: { enc: string; dbs: string; ours: number }[] };
  return res.rows[0];
}

describe('the pre-made empty PGlite cluster', () => {
  it('exists for the installed PGlite, alone in its folder (after an upgrade: npm run db:cluster)', () => {
    expect(fs.existsSync(clusterFile()), `no ${path.basename(clusterFile())}: run npm run db:cluster and commit it`).toBe(true);
    expect(fs.readdirSync(CLUSTER_FOLDER)).toEqual([`pglite-${pgliteVersion()}.tar.br`]);
  });

  it('holds the mark of a cluster last, so an unpacking cut short is done again', () => {
    const names: string[] = [];
    tar.t({ sync: true, file: clusterFile(), onReadEntry: (e) => names.push(e.path) });
    expect(names.length).toBeGreaterThan(300);
    expect(names.at(-1)).toBe(CLUSTER_MARK);
    expect(names.filter((n) => n === CLUSTER_MARK)).toHaveLength(1);
  });

  it('is what a new folder starts from: an empty cluster, opened again as it was left', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-cluster-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      expect(await facts(first)).toEqual({ enc: 'UTF8', dbs: 'postgres', ours: 0 });
      await first.db.execute(sql`create table kept (n int)`);
      await first.db.execute(sql`insert into kept values (7)`);
      await first.close();
      const again = await openDatabase({ dataDir: dir });
      const res = (await again.db.execute(sql`select n from kept`)) as unknown as { rows: { n: number }[] };
      await again.close();
      expect(res.rows).toEqual([{ n: 7 }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('is what a new in-memory database starts from', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await facts(database)).toEqual({ enc: 'UTF8', dbs: 'postgres', ours: 0 });
    } finally {
      await database.close();
    }
  }, 30_000);
});
