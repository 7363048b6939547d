import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { taskStore } from '../../src/client/lib/export-tasks';
import { type Station, station } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { type RequestLog, signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * The live console (issue 21 item 5), a console against the real server while another session
 * changes records: the open list refetches within 2 s without a reload and marks the row (said
 * politely to screen readers), an open form of the record says it changed, and the console's own
 * save marks nothing as someone else's. A burst of changes costs the list one refetch or two, not one each.
 */
let s: TestServer;
let log: RequestLog;
clientSuite((server, requests) => {
  s = server;
  log = requests;
});

const listCalls = () => log.to(station.stationList.path, 'GET').length;

/** The manager's console on 站点, its stream up; the stations it shows, read from the server. */
async function openStations(path = '/station/station?sort=updatedDate,desc') {
  const manager = await signIn(s, 'manager');
  visit(s, path);
  const rendered = renderWithUser(<App />);
  const main = await screen.findByRole('main', {}, { timeout: 5_000 });
  await waitFor(() => expect(taskStore.get().live).toBe(true), { timeout: 5_000 });
  await waitFor(() => expect(within(main).getAllByRole('row').length).toBeGreaterThan(2), { timeout: 5_000 });
  // What the table shows: the page the console asked for, read again.
  const asked = Object.fromEntries(log.to(station.stationList.path, 'GET').at(-1)!.query);
  const rows = (await s.call(station.stationList, { token: manager, query: asked })).body.data.content;
  return { ...rendered, main, rows };
}

/** Another session (the super user, elsewhere) renames a station. */
async function renameElsewhere(token: string, st: Station, name: string) {
  const res = await s.call(station.stationSave, { token, district: st.districtId, body: { id: st.id, name, lng: st.lng, lat: st.lat, state: st.state } });
  expect(res.body.code, res.body.msg).toBe(1);
}

describe('a live console', () => {
  it('a list refetches within 2 s of another session’s change and marks that row for a moment, said politely', async () => {
    const { main, rows } = await openStations();
    const target = rows[2]!;
    expect(within(main).getAllByText(target.name).length).toBeGreaterThan(0);
    const admin = await s.login('admin');
    const before = listCalls();
    const changedAt = Date.now();
    await renameElsewhere(admin, target, `${target.name}（改）`);

    const cell = await within(main).findByText(`${target.name}（改）`, {}, { timeout: 2_000 });
    expect(Date.now() - changedAt).toBeLessThan(2_000);
    expect(listCalls()).toBe(before + 1);
    const row = cell.closest('tr')!;
    expect(row.getAttribute('data-changed')).toBe('true');
    // One polite sentence for the burst, naming who: no alert, no repetition.
    const note = [...main.querySelectorAll('[aria-live="polite"]')].find((n) => /刚被/.test(n.textContent ?? ''));
    expect(note?.textContent).toMatch(/^第 \d+ 行刚被 admin 修改$/);
    // For a moment: the mark fades and the sentence goes quiet.
    await waitFor(() => expect(row.getAttribute('data-changed')).toBeNull(), { timeout: 6_000 });
    expect(note?.textContent).toBe('');
  }, 20_000);

  it('a burst of twelve changes costs the open list one refetch or two, not twelve', async () => {
    const { main, rows } = await openStations();
    const admin = await s.login('admin');
    const before = listCalls();
    await Promise.all(rows.slice(0, 10).map((r) => renameElsewhere(admin, r, `${r.name}·`)).concat(rows.slice(0, 2).map((r) => renameElsewhere(admin, r, `${r.name}··`))));
    await waitFor(() => expect(within(main).getAllByText(/··$/)).toHaveLength(2), { timeout: 2_000 });
    await new Promise((r) => setTimeout(r, 800));
    expect(listCalls() - before).toBeGreaterThanOrEqual(1);
    expect(listCalls() - before).toBeLessThanOrEqual(2);
  }, 20_000);

  it('an open form of the record says it changed, with who; the console’s own save marks nothing', async () => {
    const manager = await signIn(s, 'manager');
    const [st] = (await s.call(station.stationList, { token: manager, query: { page: 0, size: 1, sort: 'updatedDate,desc' } })).body.data.content;
    const { main, user } = await openStations(`/station/station?sort=updatedDate,desc&action=edit&id=${st!.id}`);
    const dialog = await screen.findByRole('dialog', { name: `编辑站点 · ${st!.name}` }, { timeout: 5_000 });
    expect(within(dialog).queryByText(/该记录已被他人修改/)).toBeNull();

    const admin = await s.login('admin');
    await renameElsewhere(admin, st!, `${st!.name}（他人）`);
    const notice = await within(dialog).findByText(/该记录已被他人修改（admin，\d\d:\d\d:\d\d）/, {}, { timeout: 2_000 });
    expect(notice.getAttribute('role')).toBe('status');

    // The other's mark on the row fades first; then the console saves its own change: its row is
    // refetched but not marked as someone else's.
    const theirs = await within(main).findByText(`${st!.name}（他人）`, {}, { timeout: 2_000 });
    await waitFor(() => expect(theirs.closest('tr')!.getAttribute('data-changed')).toBeNull(), { timeout: 6_000 });
    const name = within(dialog).getByLabelText(/站点名称/);
    await user.clear(name);
    await user.type(name, '本机保存的站名');
    await user.keyboard('{Control>}{Enter}{/Control}');
    // Opened before the other's rename, the first save is refused (the row version): the typed name
    // stays, the other's under it; the second save goes against what the other saved.
    expect(await within(dialog).findByText('该记录已被他人修改，请刷新后再保存', {}, { timeout: 5_000 })).toBeTruthy();
    expect((name as HTMLInputElement).value).toBe('本机保存的站名');
    await user.keyboard('{Control>}{Enter}{/Control}');
    const cell = await within(main).findByText('本机保存的站名', {}, { timeout: 5_000 });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(cell.closest('tr')!.getAttribute('data-changed')).toBeNull();
  }, 30_000);
});
