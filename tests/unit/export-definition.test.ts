import { describe, expect, it } from 'vitest';
import { defineExport, keysetRows } from '../../src/server/lib/export-definition';
import type { AppDeps } from '../../src/server/context';

const reader = { deps: {} as AppDeps, scope: { districtScope: null } };
type Row = { id: number; phone: string; citizenId: string | null; name: string };

describe('export definition', () => {
  it('masks a personal column even when its source forgot, and leaves masked values as they are', async () => {
    const rows: Row[] = [
      { id: 1, phone: '13800138001', citizenId: '11010519491231002X', name: '欧阳娜娜' },
      { id: 2, phone: '138****8002', citizenId: null, name: '张*' },
    ];
    const def = defineExport({
      id: 'test.people',
      permission: { kind: 'session' } as never,
      sheet: '人',
      columns: [
        { header: 'ID', cell: (r: Row) => r.id },
        { header: '手机号', mask: 'phone', cell: (r) => r.phone },
        { header: '身份证号', mask: 'citizenId', cell: (r) => r.citizenId },
        { header: '姓名', mask: 'name', cell: (r) => r.name },
      ],
      rows: { async *batches() { yield rows; } },
      audit: { operation: 'RIDER_EXPORT' },
    });
    const out: unknown[] = [];
    for await (const batch of def.cells(reader, {} as never)) out.push(...batch);
    expect(def.columns.map((c) => c.title)).toEqual(['ID', '手机号', '身份证号', '姓名']);
    expect(out).toEqual([
      [1, '138****8001', '110***********002X', '欧***'],
      [2, '138****8002', null, '张*'],
    ]);
  });

  it('reads a keyset source batch after batch from the last row\'s cursor until a short batch', async () => {
    const all = Array.from({ length: 2_345 }, (_, i) => i + 1);
    const asked: (number | null)[] = [];
    const source = keysetRows({
      read: async (_r, _p: object, after: number | null, limit) => {
        asked.push(after);
        return all.filter((n) => after === null || n > after).slice(0, limit);
      },
      cursor: (n) => n,
    });
    const seen: number[] = [];
    for await (const b of source.batches(reader, {})) seen.push(...b);
    expect(seen).toEqual(all);
    expect(asked).toEqual([null, 1_000, 2_000]);
  });
});
