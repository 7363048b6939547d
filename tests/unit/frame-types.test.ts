import { describe, expect, it } from 'vitest';
import { account, station } from '../../src/shared/api';
import type { FilterKeyOf, SortFieldOf } from '../../src/shared/frame/list';
import type { FilterSpec } from '../../src/client/components/resource/list-filters';
import type { ListColumn } from '../../src/client/components/resource/resource-list';
import { textFilter } from '../../src/client/components/resource/list-filters';
import { count } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';
import { listService } from '../../src/server/lib/list';

/**
 * The frame's promises to the compiler: `tsc` (part of `npm test`) fails here when a renamed filter
 * or sort key would still compile. Each `@ts-expect-error` must meet an error.
 */
describe('frame types', () => {
  it('filter and sort keys come from the endpoint', () => {
    const filters: FilterKey[] = ['name', 'state', 'hasQr'];
    // @ts-expect-error 'nam' is not a filter of station.list
    const wrongFilter: FilterKey = 'nam';
    const sorts: SortFieldOf<typeof station.stationList>[] = ['name', 'updatedDate'];
    // @ts-expect-error station.list does not sort on lng
    const wrongSort: SortFieldOf<typeof station.stationList> = 'lng';
    const spec: FilterSpec<typeof account.userPageByBody> = { keyword: textFilter('关键字') };
    // @ts-expect-error the body form's filters are the spec call's: no `login` filter
    const wrongSpec: FilterSpec<typeof account.userPageByBody> = { login: textFilter('登录名') };
    const column: ListColumn<typeof station.stationList> = { id: 'name', header: '名称', sort: 'name', cell: (s) => s.name };
    // @ts-expect-error a column sorts only on the endpoint's sort fields
    const wrongColumn: ListColumn<typeof station.stationList> = { id: 'lng', header: '经度', sort: 'lng', cell: (s) => s.lng };
    expect([filters, wrongFilter, sorts, wrongSort, spec, wrongSpec, column, wrongColumn].length).toBe(8);
  });

  it('a server list must handle every filter its endpoint takes', () => {
    const spec = {
      endpoint: station.stationList,
      select: (db: Db) => db.select().from(t.stations),
      count: (db: Db) => db.select({ n: count() }).from(t.stations),
      sorts: { name: t.stations.name, updatedDate: t.stations.updatedAt },
      order: { column: t.stations.id, dir: 'asc' as const },
      key: { column: t.stations.id, of: (r: typeof t.stations.$inferSelect) => r.id },
      dto: (r: typeof t.stations.$inferSelect) => r,
    };
    const whole = listService({ ...spec, filters: { name: null, state: null, hasQr: null } });
    // @ts-expect-error hasQr is a filter of station.list that this service forgets
    const forgetful = listService({ ...spec, filters: { name: null, state: null } });
    expect(typeof whole.page).toBe('function');
    expect(typeof forgetful.page).toBe('function');
  });
});
type FilterKey = FilterKeyOf<typeof station.stationList>;
