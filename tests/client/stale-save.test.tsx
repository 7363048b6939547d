import { screen, waitFor, within } from '@testing-library/react';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { Msg, account, station } from '../../src/shared/api';
import * as t from '../../src/server/db/schema';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * Edits never overwrite another's (issue 21), as the user meets it: a form opened on a record that
 * another session saves meanwhile is refused with the Chinese message, keeps the typed text, shows
 * what the other person saved under each field they changed, and saves on the second try.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

describe('a station saved by another session while its form is open', () => {
  it('is refused, keeps the typed name with 「他人已改为：…」 beside it, takes the other’s 经度 it did not touch, and saves on the second try', async () => {
    const db = s.database.db;
    const [xuhui] = await db.select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [seen] = await db.select().from(t.stations).where(eq(t.stations.districtId, xuhui!.id)).orderBy(asc(t.stations.id)).limit(1);
    await signIn(s, 'manager');
    visit(s, `/station/station?action=edit&id=${seen!.id}`);
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: `编辑站点 · ${seen!.name}` }, { timeout: 15_000 });

    // Another session (the super user) renames the stop and moves it while this form is open.
    const otherLng = Math.round((seen!.lng + 0.001) * 1e6) / 1e6;
    const admin = await s.login('admin');
    const other = await s.call(station.stationSave, { token: admin, body: { id: seen!.id, name: `${seen!.name}（他人）`, lng: otherLng, lat: seen!.lat, state: 1, rowVersion: seen!.rowVersion } });
    expect(other.body.code).toBe(1);

    const name = within(dialog).getByLabelText(/站点名称/) as HTMLInputElement;
    await user.clear(name);
    await user.type(name, '我的新站名');
    await user.keyboard('{Control>}{Enter}{/Control}');

    expect(await within(dialog).findByText(Msg.staleEdit, {}, { timeout: 5_000 })).toBeTruthy();
    // The typed text stays, the other's name under it; the 经度 nobody touched here takes the other's
    // value at once (saving again must not put the old one back), with no note to answer.
    expect(name.value).toBe('我的新站名');
    expect(within(dialog).getByText(`他人已改为：${seen!.name}（他人）`)).toBeTruthy();
    expect(within(dialog).getAllByText(/他人已改为/)).toHaveLength(1);
    expect((within(dialog).getByLabelText(/经度/) as HTMLInputElement).value).toBe(String(otherLng));
    // Nothing of this form was stored.
    const [between] = await db.select().from(t.stations).where(eq(t.stations.id, seen!.id));
    expect(between).toMatchObject({ name: `${seen!.name}（他人）`, lng: otherLng, rowVersion: seen!.rowVersion + 1 });

    // Keep my name, save again: against the other's version, it is kept, with the other's 经度.
    await user.click(within(dialog).getByRole('button', { name: `保留我的，不用：${seen!.name}（他人）` }));
    expect(within(dialog).queryByText(/他人已改为/)).toBeNull();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('已保存站点「我的新站名」', {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [stored] = await db.select().from(t.stations).where(eq(t.stations.id, seen!.id));
    expect(stored).toMatchObject({ name: '我的新站名', lng: otherLng, lat: seen!.lat, rowVersion: seen!.rowVersion + 2 });
  });
});

describe('an account edited by another session while its dialog is open (a form of its own, not useContractForm)', () => {
  it('is refused, keeps the typed phone, takes the other’s 姓名 it did not touch, and saves against the new version', async () => {
    const db = s.database.db;
    const [agent] = await db.select().from(t.users).where(eq(t.users.login, 'agent'));
    await signIn(s, 'manager');
    visit(s, `/user/user-list?action=edit&id=${agent!.id}`);
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: '编辑账号 · agent' }, { timeout: 15_000 });

    const admin = await s.login('admin');
    expect((await s.call(account.userUpdate, { token: admin, body: { id: agent!.id, firstName: '他人改的姓名', rowVersion: agent!.rowVersion } })).body.code).toBe(1);

    const phone = within(dialog).getByLabelText(/手机号/) as HTMLInputElement;
    await user.clear(phone);
    await user.type(phone, '13900001111');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText(Msg.staleEdit, {}, { timeout: 5_000 })).toBeTruthy();
    expect(phone.value).toBe('13900001111');
    // The 姓名 this form did not touch takes the other's at once; nothing is left to answer.
    expect((within(dialog).getByLabelText(/姓名/) as HTMLInputElement).value).toBe('他人改的姓名');
    expect(within(dialog).queryByText(/他人已改为/)).toBeNull();
    expect((await db.select().from(t.users).where(eq(t.users.id, agent!.id)))[0]!.phone).toBe(agent!.phone);

    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('已保存账号 agent', {}, { timeout: 5_000 })).toBeTruthy();
    const [stored] = await db.select().from(t.users).where(eq(t.users.id, agent!.id));
    expect(stored).toMatchObject({ firstName: '他人改的姓名', phone: '13900001111', rowVersion: agent!.rowVersion + 2 });
  });
});
