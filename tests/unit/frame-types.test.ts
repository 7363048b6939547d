import { describe, expect, it } from 'vitest';
import { SESSION, type Station, account, lineVersion, ridership, station } from '../../src/shared/api';
import { type DialogsOf, defineResource } from '../../src/client/components/resource/row-action';
import { stationActions } from '../../src/client/features/station/station-actions';
import type { FilterKeyOf, SortFieldOf } from '../../src/shared/frame/list';
import type { FilterSpec } from '../../src/client/components/resource/list-filters';
import type { ListColumn } from '../../src/client/components/resource/resource-list';
import { choiceFilter, optionsFrom, textFilter } from '../../src/client/components/resource/list-filters';
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

  it('a select fed by another call reads the list’s own filters, and gives the call the input it requires', () => {
    type Rides = typeof ridership.recordList;
    const buses = (f: { lineCode?: string }) => ({ query: f.lineCode ? { lineCode: f.lineCode } : {} });
    const fed: FilterSpec<Rides> = {
      lineCode: choiceFilter('线路', optionsFrom(ridership.ridershipLineCodes, (lines) => lines.map((l) => ({ value: l.lineCode, label: l.lineName })))),
      busName: choiceFilter('车辆', optionsFrom(ridership.ridershipBusNames, (b) => b.map((x) => ({ value: x, label: x })), (f) => buses(f))),
    };
    const renamed: FilterSpec<Rides> = {
      busName: choiceFilter(
        '车辆',
        optionsFrom(
          ridership.ridershipBusNames,
          (b) => b.map((x) => ({ value: x, label: x })),
          // @ts-expect-error 乘车记录 has no `line` filter: the input reads the list's own names
          (f) => ({ query: { lineCode: f.line } }),
        ),
      ),
    };
    // @ts-expect-error version.info requires an id: a source over it must say where the id comes from
    const noInput = optionsFrom(lineVersion.versionInfo, (v) => [{ value: String(v.id), label: v.name }]);
    // @ts-expect-error nor may it give an empty input
    const emptyInput = optionsFrom(lineVersion.versionInfo, (v) => [{ value: String(v.id), label: v.name }], () => ({}));
    const given = optionsFrom(lineVersion.versionInfo, (v) => [{ value: String(v.id), label: v.name }], () => ({ query: { id: 1 } }));
    expect([fed, renamed, noInput, emptyInput, given].length).toBe(5);
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

describe('row action types', () => {
  it('a dialog action names a page action the manifest declares, and the page must handle each one', () => {
    const declared = defineResource<Station>()({
      name: (s) => s.name,
      id: (s) => s.id,
      actions: [{ id: 'edit', label: '编辑', permission: SESSION, opens: ['station', 'station', 'edit'] }],
    });
    const undeclared = defineResource<Station>()({
      name: (s) => s.name,
      id: (s) => s.id,
      // @ts-expect-error 站点 declares no `remove` action (PageDef.actions)
      actions: [{ id: 'remove', label: '删除', permission: SESSION, opens: ['station', 'station', 'remove'] }],
    });
    // What useResourceActions asks the page for: a handler per page action the resource opens.
    type Handlers = Record<DialogsOf<typeof stationActions.actions>, (row: Station) => void>;
    const handled: Handlers = { edit: () => undefined };
    // @ts-expect-error 站点 must handle `edit`, which its resource opens
    const forgotten: Handlers = {};
    // @ts-expect-error the resource opens no `merge` dialog
    const extra: Handlers = { edit: () => undefined, merge: () => undefined };
    expect([declared, undeclared, handled, forgotten, extra].length).toBe(5);
  });
});

type FilterKey = FilterKeyOf<typeof station.stationList>;
