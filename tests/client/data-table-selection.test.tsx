import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { Button } from '../../src/client/components/button';
import { type Column, DataTable } from '../../src/client/components/data-table';

/** Row selection for bulk actions, keyboard first (the station merge and bulk actions stand on it). */
interface Row {
  id: number;
  name: string;
}
const rows: Row[] = [1, 2, 3, 4].map((id) => ({ id, name: `站点${id}` }));
const columns: Column<Row>[] = [{ id: 'name', header: '名称', cell: (r) => r.name }];
afterEach(cleanup);

function table(onBulk: (names: string[]) => void) {
  return (
    <DataTable
      id="selection-test"
      label="站点"
      columns={columns}
      rowKey={(r) => r.id}
      result={{ data: rows, isLoading: false, mutate: () => undefined }}
      selection={{
        actions: (selected, clear) => (
          <Button
            onClick={() => {
              onBulk(selected.map((r) => r.name));
              clear();
            }}
          >
            合并所选
          </Button>
        ),
      }}
    />
  );
}

describe('row selection', () => {
  it('x and Space toggle, Shift+j extends, the bar counts and runs the bulk action, Esc clears', async () => {
    const done: string[][] = [];
    const user = userEvent.setup();
    render(table((names) => done.push(names)));
    const grid = screen.getByRole('table', { name: '站点' });
    const bodyRows = within(grid).getAllByRole('row').slice(1);
    bodyRows[0]?.focus();

    await user.keyboard('x');
    expect(screen.getByRole('region', { name: '批量操作' }).textContent).toContain('已选 1 项');
    await user.keyboard('{Shift>}j{/Shift}');
    await user.keyboard('{Shift>}j{/Shift}');
    expect(screen.getByRole('region', { name: '批量操作' }).textContent).toContain('已选 3 项');
    expect(bodyRows.map((r) => r.getAttribute('aria-selected'))).toEqual(['true', 'true', 'true', 'false']);
    await user.keyboard(' ');
    expect(screen.getByRole('region', { name: '批量操作' }).textContent).toContain('已选 2 项');

    await user.click(screen.getByRole('button', { name: '合并所选' }));
    expect(done).toEqual([['站点1', '站点2']]);
    expect(screen.queryByRole('region', { name: '批量操作' })).toBeNull();

    bodyRows[3]?.focus();
    await user.keyboard('x');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: '批量操作' })).toBeNull();
  });

  it('the header box selects the whole page and a row box toggles one', async () => {
    const user = userEvent.setup();
    render(table(() => undefined));
    await user.click(screen.getByRole('checkbox', { name: '选择本页全部行' }));
    expect(screen.getByRole('region', { name: '批量操作' }).textContent).toContain('已选 4 项');
    await user.click(screen.getByRole('checkbox', { name: '选择第 2 行' }));
    expect(screen.getByRole('region', { name: '批量操作' }).textContent).toContain('已选 3 项');
  });
});
