import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, account, station } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * Edits never overwrite another's, on PostgreSQL (a pool of connections, real row locks; PGlite's
 * one connection would pass vacuously): 20 saves at once from one version, exactly one wins.
 */
describe.skipIf(skipWithoutPostgres('stale-save race (20 saves of one version at once)'))('on PostgreSQL', () => {
  let s: TestServer;
  let tokens: string[];

  beforeAll(async () => {
    s = await startTestServer();
    tokens = await Promise.all([s.login('admin'), s.login('manager')]);
  });
  afterAll(() => s?.close());

  it('20 saves of one station from one version: one is kept, 19 are refused as stale, one audit row, version + 1', async () => {
    const seen = (await s.call(station.stationList, { token: tokens[1]!, query: { size: 1 } })).body.data.content[0]!;
    const auditsOf = async () => (await s.database.db.select().from(t.sysLog).where(eq(t.sysLog.target, `station/${seen.id}`))).length;
    const before = await auditsOf();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.call(station.stationSave, { token: tokens[i % 2]!, body: { id: seen.id, name: `并发改名${i}`, lng: seen.lng, lat: seen.lat, state: seen.state, rowVersion: seen.rowVersion } }),
      ),
    );
    const won = answers.filter((r) => r.body.code === 1);
    const refused = answers.filter((r) => r.body.code === 0);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.body.msg).toBe(Msg.staleEdit);
    const [row] = await s.database.db.select().from(t.stations).where(eq(t.stations.id, seen.id));
    expect(row).toMatchObject({ name: won[0]!.body.data.name, rowVersion: seen.rowVersion + 1 });
    expect(await auditsOf()).toBe(before + 1);
  });

  it('20 edits of one account from one version (the row lock, then the check): one is kept, 19 refused', async () => {
    const target = (await s.call(account.userPage, { token: tokens[0]!, query: { keyword: 'agent', size: 5 } })).body.data.content.find((u) => u.login === 'agent')!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.call(account.userUpdate, { token: tokens[0]!, body: { id: target.id, firstName: `并发姓名${i}`, rowVersion: target.rowVersion } })),
    );
    expect(answers.filter((r) => r.body.code === 1)).toHaveLength(1);
    expect(answers.filter((r) => r.body.code === 0 && r.body.msg === Msg.staleEdit)).toHaveLength(19);
    const [row] = await s.database.db.select().from(t.users).where(eq(t.users.id, target.id));
    expect(row!.rowVersion).toBe(target.rowVersion + 1);
  });
});
