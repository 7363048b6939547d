import { asc, eq } from 'drizzle-orm';
import * as t from '../../db/schema';
import type { SeedGenerator } from '../../db/seed/context';
import { planDemoLines } from './demo-lines';
import { copyNetwork } from './service';

/**
 * Demo: every district has an online network of about 7–8 lines of 15–32 stops per direction that
 * follow its roads and turn at crossings (demo-lines.ts; one loop line in every other district) and
 * an open copy to edit; a few districts also hold a
 * version in each other status, so every step of the version screen has something to show.
 */
export const versionDemoSeed: SeedGenerator[] = [
  {
    name: 'line-versions',
    async run({ db, now, rng, profile }) {
      const districts = await db.select().from(t.districts).orderBy(asc(t.districts.id));
      let lineNo = 1;
      const extraRuns: { from: number; to: number; at: Date }[] = [];
      for (const [i, d] of districts.entries()) {
        const stops = await db.select().from(t.stations).where(eq(t.stations.districtId, d.id)).orderBy(asc(t.stations.id));
        const at = (days: number) => new Date(now.getTime() + days * 86_400_000);
        const [online] = await db
          .insert(t.lineVersions)
          .values({ districtId: d.id, name: '2026 秋季线网', status: 3, wentOnlineAt: at(-60), onlineAt: at(-60), createdAt: at(-75), updatedAt: at(-60) })
          .returning();
        const planned = planDemoLines(
          rng,
          stops,
          profile.name === 'demo' ? { lines: i % 2 ? 7 : 8, minStops: 15, maxStops: 32, loops: i % 2 } : { lines: 2, minStops: 3, maxStops: 8, loops: 0 },
        );
        // A district's lines in a few statements, not five per line: the ids come out as before.
        const codes = planned.map(() => String(lineNo++));
        const inserted = await db
          .insert(t.busLines)
          .values(
            planned.map((plan, k) => ({
              versionId: online!.id,
              code: codes[k]!,
              name: `${codes[k]}路`,
              direction: plan.isLoop ? 0 : -1,
              isLoop: plan.isLoop,
              firstBus: '05:30',
              lastBus: rng.next() < 0.3 ? '23:00' : '21:30',
              fare: rng.pick([200, 200, 200, 300]),
              createdAt: at(-75),
              updatedAt: at(-75),
            })),
          )
          .returning({ id: t.busLines.id, code: t.busLines.code });
        // Matched back by code (unique within a version), not by the order of the answer.
        const idOf = new Map(inserted.map((l) => [l.code, l.id]));
        const lines = codes.map((code) => ({ id: idOf.get(code)! }));
        const path = (list: readonly { lng: number; lat: number }[]) => list.map((s) => [s.lng, s.lat] as [number, number]);
        await db.insert(t.lineStations).values(
          planned.flatMap(({ up, down }, k) => [
            ...up.map((s, seq) => ({ lineId: lines[k]!.id, direction: 0, seq, stationId: s.id })),
            ...down.map((s, seq) => ({ lineId: lines[k]!.id, direction: 1, seq, stationId: s.id })),
          ]),
        );
        await db
          .insert(t.lineRoutes)
          .values(planned.flatMap(({ up, down }, k) => [{ lineId: lines[k]!.id, direction: 0, points: path(up) }, ...(down.length ? [{ lineId: lines[k]!.id, direction: 1, points: path(down) }] : [])]));
        // Some lines run a short working (区间) or an express (大站快车) on the up direction.
        const variants = planned.flatMap(({ up, isLoop }, k) => {
          const code = codes[k]!;
          const kind = isLoop ? null : Number(code) % 3 === 0 ? '区间' : Number(code) % 5 === 0 ? '大站快车' : null;
          if (!kind || up.length < 4) return [];
          const served = kind === '区间' ? up.slice(1, -1) : up.filter((_, j) => j % 2 === 0 || j === up.length - 1);
          return [{ lineId: lines[k]!.id, name: `${code}路${kind}`, served }];
        });
        if (variants.length) {
          const details = await db
            .insert(t.lineDetails)
            .values(variants.map((v) => ({ lineId: v.lineId, name: v.name, direction: 0, createdAt: at(-75), updatedAt: at(-75) })))
            .returning({ id: t.lineDetails.id, lineId: t.lineDetails.lineId });
          // A line has at most one variant here: matched back by its line.
          const detailOf = new Map(details.map((d) => [d.lineId, d.id]));
          await db.insert(t.lineDetailStations).values(variants.flatMap((v) => v.served.map((s, seq) => ({ detailId: detailOf.get(v.lineId)!, seq, stationId: s.id }))));
        }
        const [open] = await db.insert(t.lineVersions).values({ districtId: d.id, name: '2027 春季线网（编辑中）', status: 0, createdAt: at(-3), updatedAt: at(-3) }).returning();
        await copyNetwork(db, online!.id, open!.id, at(-3));
        // The first districts also show the other steps of a version's life.
        if (i < 3) {
          const [, , extra] = await db
            .insert(t.lineVersions)
            .values([
              { districtId: d.id, name: '2026 夏季线网', status: 4, wentOnlineAt: at(-150), onlineAt: at(-150), createdAt: at(-160), updatedAt: at(-60) },
              { districtId: d.id, name: '2026 试运行调整', status: 5, remark: '方案撤回', createdAt: at(-40), updatedAt: at(-30) },
              { districtId: d.id, name: '2026 冬季加班线', status: i === 0 ? 1 : 2, onlineAt: i === 0 ? null : at(14), createdAt: at(-10), updatedAt: at(-2) },
            ])
            .returning();
          extraRuns.push({ from: online!.id, to: extra!.id, at: at(-10) });
        }
      }
      // The submitted and passed versions carry a network, as every version past editing must (one
      // without lines would leave its district with none when it goes online): the online one, its
      // first line running later in the evening. Copied after every district's own rows, so the
      // ids those rows had before stay the same.
      for (const run of extraRuns) {
        await copyNetwork(db, run.from, run.to, run.at);
        const [first] = await db.select().from(t.busLines).where(eq(t.busLines.versionId, run.to)).orderBy(asc(t.busLines.id)).limit(1);
        if (first) await db.update(t.busLines).set({ lastBus: '23:30' }).where(eq(t.busLines.id, first.id));
      }
    },
  },
];
