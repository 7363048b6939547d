import { system } from '../../../../shared/api';
import { textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';

const coord = (v: number | null) => (v === null ? '—' : v.toFixed(6));

const columns: ListColumn<typeof system.districtPage>[] = [
  { id: 'name', header: '区域名称', sort: 'name', fixed: true, cell: (d) => <span className="font-medium text-gray-800">{d.name}</span> },
  { id: 'code', header: '行政区划代码', sort: 'code', cell: (d) => d.code, className: 'tabular-nums' },
  { id: 'lat', header: '纬度', align: 'right', cell: (d) => coord(d.lat) },
  { id: 'lon', header: '经度', align: 'right', cell: (d) => coord(d.lon) },
];

/** 区域管理 (ListDistrict): the city's districts with their codes and centre points. */
export function DistrictPage() {
  const list = useResourceList({ endpoint: system.districtPage, filters: { name: textFilter('区域名称', { placeholder: '如 徐汇' }) } });
  return (
    <ScreenSection title="区域管理">
      <ResourceTable list={list} id="settings.districts" label="区域列表" columns={columns} rowKey={(d) => d.id} />
    </ScreenSection>
  );
}
