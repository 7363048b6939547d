import * as system from '../../../shared/api/system';
import { readDistrict } from '../../lib/session-store';
import { useApi } from '../../lib/use-api';

/** Shown to openDistrict accounts (spec §2); the area list is page 0, size 1000 (spec §7, §9). */
export function AreaSelector({ onChange }: { onChange(id: string | null): void }) {
  const { data } = useApi(system.districtPage, { query: { page: 0, size: 1000 } });
  const value = readDistrict() ?? '';
  return (
    <label className="flex items-center gap-1 text-sm text-gray-600">
      <span className="hidden sm:inline">区域</span>
      <select
        aria-label="切换区域"
        value={value}
        onChange={(e) => onChange(e.target.value || null)}
        className="max-w-32 rounded border border-gray-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
      >
        <option value="">全部区域</option>
        {data?.content.map((d) => (
          <option key={d.id} value={String(d.id)}>
            {d.name}
          </option>
        ))}
      </select>
    </label>
  );
}
