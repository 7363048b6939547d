import type { ReactNode } from 'react';
import { Button } from '../button';
import { type ColumnChoice, ColumnMenu } from '../column-menu';

interface ToolbarProps {
  toolbar: ReactNode;
  refreshing: boolean;
  /** Data is shown while it refreshes: the button says so. */
  hasData: boolean;
  refresh(): void;
  columns: readonly ColumnChoice[];
  hidden: ReadonlySet<string>;
  onToggleColumn(id: string): void;
}

/** The page's buttons, 刷新 and the column menu. */
export function TableToolbar({ toolbar, refreshing, hasData, refresh, columns, hidden, onToggleColumn }: ToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div className="flex flex-1 flex-wrap items-center gap-2">{toolbar}</div>
      <Button className="h-8" onClick={refresh} disabled={refreshing} title="重新加载">
        {refreshing && hasData ? '刷新中…' : '刷新'}
      </Button>
      <ColumnMenu columns={columns} hidden={hidden} onToggle={onToggleColumn} />
    </div>
  );
}

/** Shown while rows are picked: the count, the page's bulk actions, 取消选择. */
export function BulkBar({ count, actions, clear }: { count: number; actions: ReactNode; clear(): void }) {
  return (
    <div role="region" aria-label="批量操作" className="flex flex-wrap items-center gap-2 rounded border border-[var(--theme)]/30 bg-[#ecf5ff] px-3 py-2 text-sm">
      <span aria-live="polite">已选 {count} 项</span>
      {actions}
      <Button className="h-7" onClick={clear} hotkey="Esc">
        取消选择
      </Button>
    </div>
  );
}

/** A refresh failed while the last rows stay shown. */
export function RefreshFailed({ error, retry }: { error: unknown; retry(): void }) {
  return (
    <p role="alert" className="flex items-center gap-3 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      刷新失败：{error instanceof Error ? error.message : '请求出错'}
      <Button className="h-7" onClick={retry}>
        重试
      </Button>
    </p>
  );
}

/** The keys this table answers to, for a wide screen (the keyboard's users read it once). */
export function KeyHints({ activate, select, paged, filtered }: { activate: boolean; select: boolean; paged: boolean; filtered: boolean }) {
  return (
    <p className="hidden text-xs text-gray-500 lg:block" aria-hidden="true">
      j/k 或 ↑/↓ 选择行{activate ? '，Enter 打开' : ''}
      {select ? '，空格或 x 勾选，Shift+j/k 连选' : ''}
      {paged ? '，PgUp/PgDn 翻页' : ''}
      {filtered ? '，/ 搜索' : ''}
    </p>
  );
}
