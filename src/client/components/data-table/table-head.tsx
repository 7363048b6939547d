import type { Column } from '../data-table';
import { PIN_END } from './pin-end';
import type { TableState } from '../table-state';
import type { Selection } from './use-selection';

const nextSort = (current: string | undefined, field: string): string | undefined => {
  if (current === `${field},asc`) return `${field},desc`;
  if (current === `${field},desc`) return undefined;
  return `${field},asc`;
};

interface TableHeadProps<T> {
  visible: readonly Column<T>[];
  state: TableState<string> | undefined;
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  selection: Selection<T>;
}

/** The header row: the page's select-all box and the columns, a sortable one as a button cycling asc, desc, none. */
export function TableHead<T>({ visible, state, rows, rowKey, selection }: TableHeadProps<T>) {
  return (
    <thead className="bg-gray-50 text-gray-500">
      <tr aria-rowindex={1}>
        {selection.enabled && (
          <th scope="col" className="w-8 px-3 py-2">
            <input
              type="checkbox"
              aria-label="选择本页全部行"
              checked={rows.length > 0 && selection.selectedRows.length === rows.length}
              onChange={(e) => selection.pick(rows.map(rowKey), e.target.checked)}
            />
          </th>
        )}
        {visible.map((c) => (
          <HeaderCell key={c.id} column={c} state={state} />
        ))}
      </tr>
    </thead>
  );
}

function HeaderCell<T>({ column: c, state }: { column: Column<T>; state: TableState<string> | undefined }) {
  const dir = c.sort && state?.sort?.startsWith(`${c.sort},`) ? (state.sort.endsWith(',asc') ? 'ascending' : 'descending') : undefined;
  return (
    <th scope="col" aria-sort={c.sort ? (dir ?? 'none') : undefined} className={`px-3 py-2 font-medium ${c.align === 'right' ? 'text-right' : ''} ${c.pinEnd ? `${PIN_END} bg-gray-50` : ''}`}>
      {c.sort && state ? (
        <button
          type="button"
          onClick={() => state.setSort(nextSort(state.sort, c.sort ?? ''))}
          title={`按${c.header}排序`}
          className="inline-flex items-center gap-1 rounded hover:text-[var(--theme-strong)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--theme)]"
        >
          {c.header}
          <span aria-hidden="true" className={`text-[10px] ${dir ? 'text-[var(--theme-strong)]' : 'text-gray-300'}`}>
            {dir === 'ascending' ? '▲' : dir === 'descending' ? '▼' : '▲▼'}
          </span>
        </button>
      ) : (
        c.header
      )}
    </th>
  );
}
