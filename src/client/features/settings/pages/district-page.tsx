import { useMemo } from 'react';
import { type District, system } from '../../../../shared/api';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { useTableState } from '../../../components/table-state';
import { useDistrictPage } from '../api';
import { ScreenSection } from '../../../components/screen-section';

const FILTER_KEYS = ['name'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

const coord = (v: number | null) => (v === null ? '—' : v.toFixed(6));

const columns: Column<District>[] = [
  { id: 'name', header: '区域名称', sort: 'name', fixed: true, cell: (d) => <span className="font-medium text-gray-800">{d.name}</span> },
  { id: 'code', header: '行政区划代码', sort: 'code', cell: (d) => d.code, className: 'tabular-nums' },
  { id: 'lat', header: '纬度', align: 'right', cell: (d) => coord(d.lat) },
  { id: 'lon', header: '经度', align: 'right', cell: (d) => coord(d.lon) },
];

/** 区域管理 (ListDistrict): the city's districts with their codes and centre points. */
export function DistrictPage() {
  const table = useTableState<FilterKey>({ filters: FILTER_KEYS, schema: system.districtPage.query });
  const districts = useDistrictPage(table.query);
  const filters = useMemo<FilterDef<FilterKey>[]>(() => [{ key: 'name', label: '区域名称', type: 'text', placeholder: '如 徐汇', maxLength: 32 }], []);
  return (
    <ScreenSection title="区域管理">
      <DataTable id="settings.districts" label="区域列表" columns={columns} rowKey={(d) => d.id} result={districts} state={table} filters={filters} />
    </ScreenSection>
  );
}
