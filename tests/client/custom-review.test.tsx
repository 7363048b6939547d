import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customClasses, customTickets } from '../../src/server/modules/custom-bus/schema';
import { type CustomFixture, fixtureClass, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 班次管理's 取消班次: the row's c opens a dialog with what will be refunded; a reason is required; Ctrl+Enter cancels. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const f = (): CustomFixture => ({ db: db(), pii: createPii(TEST_PII_KEY), now: s.clock.now() });

describe('班次管理 · 取消班次', () => {
  it('c opens the dialog with the paid tickets and the total; without a reason nothing changes; Ctrl+Enter cancels and refunds', async () => {
    const area = (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
    const { line } = await fixtureLine(f(), area, { name: '客户端取消线' });
    const c = await fixtureClass(f(), line, 2);
    const { order } = await fixturePaidOrder(f(), c, { seats: 2 });
    await signIn(s, 'manager');
    visit(s, `/customBus/classes?lineId=${line.id}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const tbl = await within(main).findByRole('table', { name: '班次列表' }, { timeout: 5_000 });
    const row = await waitFor(
      () => {
        const found = within(tbl)
          .getAllByRole('row')
          .find((r) => r.textContent?.includes(`${c.departDate} 07:30`));
        expect(found).toBeTruthy();
        return found!;
      },
      { timeout: 5_000 },
    );
    row.focus();
    await user.keyboard('c');
    const dialog = await screen.findByRole('dialog', { name: `取消班次 · ${line.name} ${c.departDate} 07:30` });
    await waitFor(() => expect(dialog.textContent).toContain('2 张（已核销 0 张）'));
    expect(dialog.textContent).toContain('24.00 元');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('请填写取消原因（至少2个字）')).toBeTruthy();
    expect((await db().select().from(customClasses).where(eq(customClasses.id, c.id)))[0]!.status).toBe(1);
    await user.type(within(dialog).getByLabelText(/取消原因/), '车辆故障');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await db().select().from(customClasses).where(eq(customClasses.id, c.id)))[0]).toMatchObject({ status: 4, cancelReason: '车辆故障' });
    expect((await db().select().from(customTickets).where(eq(customTickets.orderId, order.id))).map((x) => x.state)).toEqual([3, 3]);
  });
});
