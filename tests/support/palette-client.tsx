import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { renderWithUser, visit } from './render';
import { signIn } from './request-log';
import type { TestServer } from './test-server';

/** The palette as the client tests drive it: the real App signed in, Ctrl+K, typed queries, the rows. */

export type User = ReturnType<typeof renderWithUser>['user'];

export const rowTexts = (dialog: HTMLElement) => within(dialog).queryAllByRole('option').map((r) => r.textContent ?? '');
export const selectedText = (dialog: HTMLElement) => within(dialog).queryByRole('option', { selected: true })?.textContent ?? '';
export const listSettled = (dialog: HTMLElement) =>
  waitFor(() => expect(within(dialog).getByRole('listbox', { name: '搜索结果' }).getAttribute('aria-busy')).toBe('false'), { timeout: 10_000 });

export async function openPalette(user: User) {
  await user.keyboard('{Control>}k{/Control}');
  const dialog = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
  const input = within(dialog).getByRole('combobox') as HTMLInputElement;
  await waitFor(() => expect(document.activeElement).toBe(input));
  return { dialog, input };
}

/** Types a query and waits until the selected row is the record. */
export async function find(user: User, dialog: HTMLElement, typed: string, title: string) {
  await user.keyboard(typed);
  await listSettled(dialog);
  await waitFor(() => expect(selectedText(dialog).startsWith(title), selectedText(dialog)).toBe(true), { timeout: 5_000 });
}

/** What needs the file's server: its database, a fresh stop of 徐汇区, the App signed in. */
export function paletteSuite(server: () => TestServer) {
  const db = () => server().database.db;
  const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
  return {
    db,
    xuhui,
    /** A stop of 徐汇区 made for one test, `east` and `north` metres from a fixed point, in service. */
    async freshStation(name: string, east = 0, qrCode: string | null = null, north = 0) {
      const now = new Date();
      const lng = +(121.4401 + east / (111_320 * Math.cos((31.1802 * Math.PI) / 180))).toFixed(6);
      const lat = +(31.1802 + north / 111_320).toFixed(6);
      const [made] = await db().insert(t.stations).values({ districtId: await xuhui(), name, lng, lat, qrCode, createdAt: now, updatedAt: now }).returning();
      return made!;
    },
    async start(login: string, path = '/noticeReport/notice') {
      const token = await signIn(server(), login);
      visit(server(), path);
      const { user } = renderWithUser(<App />);
      await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
      return { user, token };
    },
  };
}
