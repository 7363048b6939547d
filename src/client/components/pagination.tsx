import { useId } from 'react';
import { Button } from './button';
import { PAGE_SIZES } from './table-state';

interface PaginationProps {
  page: number;
  size: number;
  total: number;
  totalPages: number;
  onPage(page: number): void;
  onSize(size: number): void;
}

/** 共 N 条, page size, previous / next; pages count from 0 on the wire and from 1 on screen. */
export function Pagination({ page, size, total, totalPages, onPage, onSize }: PaginationProps) {
  const sizeId = useId();
  const last = Math.max(0, totalPages - 1);
  return (
    <nav aria-label="分页" className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2 text-sm text-gray-600">
      <span>共 {total} 条</span>
      <span className="flex items-center gap-1">
        <label htmlFor={sizeId}>每页</label>
        <select
          id={sizeId}
          value={size}
          onChange={(e) => onSize(Number(e.target.value))}
          className="h-8 rounded border border-gray-300 bg-white px-1.5 text-sm focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
        >
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <span aria-hidden="true">条</span>
      </span>
      <span className="flex items-center gap-2">
        <Button className="h-8" disabled={page <= 0} onClick={() => onPage(page - 1)} hotkey="PgUp">
          <span aria-hidden="true">‹</span> 上一页
        </Button>
        <span aria-live="polite" className="tabular-nums">
          {totalPages ? page + 1 : 0} / {totalPages}
        </span>
        <Button className="h-8" disabled={page >= last} onClick={() => onPage(page + 1)} hotkey="PgDn">
          下一页 <span aria-hidden="true">›</span>
        </Button>
      </span>
    </nav>
  );
}
