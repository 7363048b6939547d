import type { KeyboardEvent } from 'react';
import type { LadderRow } from '../../../../shared/custom/refund-ladder';

/** A ladder row as typed: every cell is text until it is saved (empty 截止 means 及以上). */
export interface LadderCells {
  fromMin: string;
  toMin: string;
  refundable: boolean;
  /** Percent, e.g. `20` or `12.5`. */
  feePct: string;
  /** Yuan. */
  minFee: string;
}

export const cellsOf = (r: LadderRow): LadderCells => ({
  fromMin: String(r.fromMin),
  toMin: r.toMin === null ? '' : String(r.toMin),
  refundable: r.refundable === 1,
  feePct: String(r.feeRate / 10),
  minFee: (r.minFee / 100).toFixed(2).replace(/\.00$/, ''),
});

const int = (t: string) => (/^\d{1,9}$/.test(t.trim()) ? Number(t.trim()) : Number.NaN);
/** Percent with at most one decimal → ‰ (the stored rate); NaN otherwise. */
const permille = (t: string) => (/^\d{1,4}(\.\d)?$/.test(t.trim()) ? Math.round(Number(t.trim()) * 10) : Number.NaN);
const fen = (t: string) => {
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(t.trim() || '0');
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : Number.NaN;
};

/** The rows the cells stand for, or the first cell that is not a number (the grid's message). */
export function rowsOfCells(cells: readonly LadderCells[]): { rows: LadderRow[] } | { problem: string } {
  const rows: LadderRow[] = [];
  for (const [i, c] of cells.entries()) {
    const at = `第${i + 1}行`;
    const fromMin = int(c.fromMin);
    const toMin = c.toMin.trim() === '' ? null : int(c.toMin);
    const feeRate = c.refundable ? permille(c.feePct || '0') : 0;
    const minFee = c.refundable ? fen(c.minFee) : 0;
    if (Number.isNaN(fromMin)) return { problem: `${at}起始分钟应为整数` };
    if (toMin !== null && Number.isNaN(toMin)) return { problem: `${at}截止分钟应为整数（留空表示及以上）` };
    if (Number.isNaN(feeRate)) return { problem: '手续费比例应在0–100%之间' };
    if (Number.isNaN(minFee)) return { problem: `${at}最低手续费应为金额（元）` };
    rows.push({ fromMin, toMin, refundable: c.refundable ? 1 : 0, feeRate, minFee });
  }
  return { rows };
}

/** A new row after `row`: it starts where that one ends (blank after the open-ended last row, for the operator to split it). */
export const rowAfter = (row: LadderCells | undefined): LadderCells => ({ fromMin: row ? row.toMin : '0', toMin: '', refundable: true, feePct: '0', minFee: '0' });

const cell = 'w-full min-w-0 rounded border border-gray-300 px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-[var(--theme)] read-only:bg-gray-50';

/**
 * 退款阶梯 as a grid: Tab walks the cells row by row, Alt+↓ adds a row below the one the caret is in
 * (starting where it ends), Alt+Delete removes it. The caller recomputes the preview on each change.
 */
export function LadderGrid({ cells, onChange, readOnly }: { cells: readonly LadderCells[]; onChange(next: LadderCells[]): void; readOnly: boolean }) {
  const set = (i: number, patch: Partial<LadderCells>) => onChange(cells.map((c, k) => (k === i ? { ...c, ...patch } : c)));
  const add = (i: number) => {
    const next = [...cells];
    next.splice(i + 1, 0, rowAfter(cells[i]));
    onChange(next);
    // The new row's first cell takes the caret once it is drawn.
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>(`[data-ladder-cell="${i + 1}-from"]`)?.focus());
  };
  const remove = (i: number) => {
    if (cells.length <= 1) return;
    onChange(cells.filter((_, k) => k !== i));
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>(`[data-ladder-cell="${Math.max(0, i - 1)}-from"]`)?.focus());
  };
  const keys = (i: number) => (e: KeyboardEvent) => {
    if (readOnly || !e.altKey) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      add(i);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      remove(i);
    }
  };
  return (
    // `relative`: the header's sr-only cell is positioned; without a positioned ancestor inside the
    // scroller it escapes the clip and widens the page at 375 px.
    <div className="relative overflow-x-auto">
      <table aria-label="退款阶梯" className="w-full min-w-[560px] text-sm">
        <thead className="whitespace-nowrap text-left text-gray-600">
          <tr>
            <th className="px-1 py-1 font-normal">距发车起（分钟）</th>
            <th className="px-1 py-1 font-normal" title="最后一行留空：及以上">至（分钟）</th>
            <th className="px-1 py-1 font-normal">可退</th>
            <th className="px-1 py-1 font-normal">手续费（%）</th>
            <th className="px-1 py-1 font-normal">最低手续费（元）</th>
            <th className="px-1 py-1 font-normal">
              <span className="sr-only">操作</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {cells.map((c, i) => (
            // Rows have no identity but their place: the grid is edited in place.
            <tr key={i} onKeyDown={keys(i)}>
              <td className="px-1 py-0.5">
                <input aria-label={`第${i + 1}行 起始分钟`} data-ladder-cell={`${i}-from`} inputMode="numeric" readOnly={readOnly} className={cell} value={c.fromMin} onChange={(e) => set(i, { fromMin: e.target.value })} />
              </td>
              <td className="px-1 py-0.5">
                <input aria-label={`第${i + 1}行 截止分钟`} inputMode="numeric" placeholder="及以上" readOnly={readOnly} className={cell} value={c.toMin} onChange={(e) => set(i, { toMin: e.target.value })} />
              </td>
              <td className="px-1 py-0.5 text-center">
                <input aria-label={`第${i + 1}行 可退`} type="checkbox" disabled={readOnly} className="size-4 accent-[var(--theme)]" checked={c.refundable} onChange={(e) => set(i, { refundable: e.target.checked })} />
              </td>
              <td className="px-1 py-0.5">
                <input aria-label={`第${i + 1}行 手续费比例`} inputMode="decimal" readOnly={readOnly || !c.refundable} className={cell} value={c.refundable ? c.feePct : ''} onChange={(e) => set(i, { feePct: e.target.value })} />
              </td>
              <td className="px-1 py-0.5">
                <input aria-label={`第${i + 1}行 最低手续费`} inputMode="decimal" readOnly={readOnly || !c.refundable} className={cell} value={c.refundable ? c.minFee : ''} onChange={(e) => set(i, { minFee: e.target.value })} />
              </td>
              <td className="px-1 py-0.5">
                {!readOnly && cells.length > 1 && (
                  <button type="button" tabIndex={-1} aria-label={`删除第${i + 1}行`} title="删除此行 (Alt+Delete)" onClick={() => remove(i)} className="rounded px-1 text-gray-500 hover:text-red-600">
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!readOnly && (
        <button type="button" className="mt-1 text-sm text-[var(--theme-strong)] hover:underline" onClick={() => add(cells.length - 1)}>
          + 添加一行 <kbd className="ml-1 rounded border border-gray-300 px-1 text-xs text-gray-500">Alt+↓</kbd>
        </button>
      )}
    </div>
  );
}
