import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { PHONE, breadcrumb, currentTitle, loginThroughPage, openConsole } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';

/**
 * The smaller defects of issue 21 that only a real browser shows: scrolling and what Tab reaches.
 * One `npm start` for the file.
 */

let server: StartedServer;
let browser: Browser | undefined;

e2eSuite('issue-21 defects', (started, launched) => {
  server = started;
  browser = launched;
});

const it_ = it.skipIf(!hasChromium);

/** Where the top bar is, and whether anything scrolled the shell. */
const topBar = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector('header')!.getBoundingClientRect();
    const scrolled = [...document.querySelectorAll<HTMLElement>('body, body *')].filter((el) => el.scrollTop > 0 && !el.closest('main')).map((el) => el.tagName + '.' + el.className.slice(0, 40));
    return { top: bar.top, bottom: bar.bottom, windowY: window.scrollY, scrolled };
  });

describe('Esc out of the palette', () => {
  it_('leaves the top bar (breadcrumb, 下载中心, user menu) in view on every screen tried', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'admin');
      for (const path of ['/user/user-list', '/station/station', '/user/sys-log', '/settings/base-setting', '/busUser/bus-user', '/busUser/card']) {
        await page.goto(`${server.url}${path}`);
        await currentTitle(page).waitFor({ timeout: 15_000 });
        await page.waitForTimeout(600);
        await page.evaluate(() => document.getElementById('main')?.focus({ preventScroll: true }));
        await page.keyboard.press('Control+k');
        await page.getByRole('dialog', { name: '命令面板' }).waitFor({ timeout: 10_000 });
        await page.keyboard.press('Escape');
        await page.getByRole('dialog', { name: '命令面板' }).waitFor({ state: 'detached', timeout: 5_000 });
        await page.waitForTimeout(200);
        const bar = await topBar(page);
        expect({ path, ...bar }).toEqual({ path, top: 0, bottom: bar.bottom, windowY: 0, scrolled: [] });
        expect(await breadcrumb(page).isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: /下载中心/ }).isVisible()).toBe(true);
      }
    } finally {
      await context.close();
    }
  });
});

describe('the station map', () => {
  it_('is one named Tab stop (and its zoom buttons): no marker is an unnamed focusable', async () => {
    const { context, page } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      await page.goto(`${server.url}/station/station`);
      const map = page.getByRole('application', { name: /本页站点/ });
      await map.waitFor({ timeout: 15_000 });
      await page.locator('.leaflet-overlay-pane path').first().waitFor({ timeout: 15_000 });
      const markers = await page.locator('.leaflet-overlay-pane path').count();
      expect(markers).toBeGreaterThan(5);
      // Every element inside the map Tab reaches, with the name it would be announced by.
      const stops = await page.evaluate(() => {
        const host = document.querySelector('[role="application"]')!;
        const named = (el: Element) => el.getAttribute('aria-label') || el.getAttribute('title') || (el.textContent ?? '').trim();
        const focusable = [host, ...host.querySelectorAll('*')].filter((el) => {
          const ti = (el as HTMLElement | SVGElement).tabIndex;
          return ti >= 0 && !(el as HTMLElement).hidden && (el.getAttribute('tabindex') !== null || el.matches('a[href], button, input, select, textarea, [tabindex]'));
        });
        return focusable.map((el) => ({ tag: el.tagName.toLowerCase(), name: named(el) }));
      });
      expect(stops.filter((s) => !s.name)).toEqual([]);
      expect(stops.filter((s) => s.tag === 'path')).toEqual([]);
      // And by the keyboard itself: Tab from the map leaves it after its zoom buttons at most.
      await map.focus();
      const reached: string[] = [];
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        const inside = await page.evaluate(() => {
          const a = document.activeElement;
          return a && document.querySelector('[role="application"]')!.contains(a) ? `${a.tagName.toLowerCase()}:${a.getAttribute('aria-label') || a.getAttribute('title') || ''}` : null;
        });
        if (!inside) break;
        reached.push(inside);
      }
      expect(reached.length).toBeLessThanOrEqual(2);
      expect(reached.every((r) => !r.endsWith(':'))).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('the phone menu drawer', () => {
  it_('has a named close button that Tab reaches and that closes it; Esc closes it too; axe finds nothing critical or serious', async () => {
    const { context, page } = await openConsole(browser!, PHONE, undefined, { bypassCSP: true });
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'manager');
      const drawer = page.getByRole('dialog', { name: '菜单' });
      await page.getByRole('button', { name: '展开菜单' }).click();
      await drawer.waitFor({ state: 'attached', timeout: 5_000 });
      const close = drawer.getByRole('button', { name: '关闭菜单' });
      expect(await close.isVisible()).toBe(true);
      const box = (await close.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect((await axeViolations(page)).map((v) => `${v.id}: ${v.targets.join(' | ')}`)).toEqual([]);
      // Reached by the keyboard: Shift+Tab from wherever focus starts in the drawer.
      let reached = false;
      for (let i = 0; i < 60 && !reached; i++) {
        await page.keyboard.press('Shift+Tab');
        reached = await close.evaluate((el) => el === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      await drawer.waitFor({ state: 'detached', timeout: 5_000 });

      await page.getByRole('button', { name: '展开菜单' }).click();
      await drawer.waitFor({ state: 'attached', timeout: 5_000 });
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached', timeout: 5_000 });
    } finally {
      await context.close();
    }
  });
});
