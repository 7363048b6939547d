import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { loginThroughPage, openConsole, storedToken, watchPaint } from '../support/e2e-console';
import { type StartedServer, hasChromium } from '../support/e2e';
import { e2eSuite } from '../support/e2e-suite';

/**
 * The call-centre agent's flow of issue 11 in Debian's Chromium against `npm start`, keyboard only:
 * a cold palette (its first opening since login), a card number, Enter, the card view; then the
 * holder's real name with a reason. Every key pressed is counted, and the count is the figure the
 * README quotes.
 */

let server: StartedServer;
let browser: Browser | undefined;
e2eSuite('desk', (started, launched) => {
  server = started;
  browser = launched;
});
const it_ = it.skipIf(!hasChromium);

/** The keyboard, counting: each `press` is one keystroke, each typed character one. */
function countingKeys(page: Page) {
  let n = 0;
  return {
    press: async (key: string) => (n++, page.keyboard.press(key)),
    type: async (text: string) => ((n += [...text].length), page.keyboard.type(text)),
    get count() {
      return n;
    },
  };
}

describe('the desk, keyboard only', () => {
  it_('Ctrl+K, a card number, Enter: 卡片详情 with the holder masked; Tab to 查看实名信息, a reason, Enter: the holder in full', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'agent');
      await page.waitForLoadState('networkidle');
      // A card with a holder in the agent's area, as a caller would read it out.
      const token = await storedToken(page);
      const cards = (await fetch(`${server.url}/buscodepc/fyapi/busCard/page?size=50&state=1`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as {
        data: { content: { cardNo: string; holder: { phone: string } | null }[] };
      };
      const card = cards.data.content.find((c) => c.holder)!;
      expect(card).toBeTruthy();

      const keys = countingKeys(page);
      const started = performance.now();
      await keys.press('Control+k');
      const palette = page.getByRole('dialog', { name: '命令面板' });
      await palette.waitFor({ timeout: 10_000 });
      // Typed at once, as an agent does: the palette's own loads may still be on their way.
      await keys.type(card.cardNo);
      // Timed in the page (Playwright's polling would add up to half a second): from the Enter's
      // keydown to the first frame that shows the card's heading.
      const inPage = watchPaint(page, `卡片详情 · ${card.cardNo}`);
      await inPage.armed;
      await keys.press('Enter');
      const heading = page.getByText(`卡片详情 · ${card.cardNo}`);
      await heading.waitFor({ timeout: 10_000 });
      const painted = performance.now() - started;
      const afterEnter = await inPage.result();
      const lookupKeys = keys.count;
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/busUser/card?no=${card.cardNo}`);
      const holder = page.getByRole('region', { name: '持卡人' });
      await expect.poll(() => holder.innerText(), { timeout: 5_000 }).toContain(card.holder!.phone);
      expect(card.holder!.phone).toMatch(/^1\d{2}\*{4}\d{4}$/);

      // 查看实名信息: Tab from <main> to the holder's button, Enter, a reason, Enter.
      const reveal = holder.getByRole('button', { name: '查看实名信息' });
      for (let i = 0; i < 12 && !(await reveal.evaluate((b) => b === document.activeElement)); i++) await keys.press('Tab');
      expect(await reveal.evaluate((b) => b === document.activeElement)).toBe(true);
      await keys.press('Enter');
      const dialog = page.getByRole('dialog', { name: '查看实名信息' });
      // The dialog's outer box has no size (its panel is fixed): wait for the field, which has focus.
      const reason = dialog.getByLabel(/查看原因/);
      await reason.waitFor({ timeout: 5_000 });
      await expect.poll(() => reason.evaluate((el) => el === document.activeElement)).toBe(true);
      await keys.type('乘客来电核实');
      await keys.press('Enter');
      await expect.poll(() => dialog.innerText(), { timeout: 5_000 }).toMatch(/1\d{10}/);
      const revealKeys = keys.count - lookupKeys;
      await keys.press('Escape');
      await expect.poll(() => dialog.count(), { timeout: 5_000 }).toBe(0);

      console.log(`[e2e desk] cold palette → card view: ${lookupKeys} keystrokes (Ctrl+K, 16 digits, Enter), painted ${afterEnter.toFixed(0)} ms after Enter (${painted.toFixed(0)} ms from Ctrl+K, typing included); reveal: ${revealKeys} more keystrokes`);
      expect(lookupKeys).toBe(18);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it_('a card of another district: the card view says which district, and 返回上一页 (Tab, Enter) leads back to the page the agent came from', async () => {
    const { context, page, errors } = await openConsole(browser!);
    try {
      await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/busUser/bus-user')}`);
      await loginThroughPage(page, 'agent');
      await page.waitForURL((u) => u.pathname === '/busUser/bus-user');
      await page.waitForLoadState('networkidle');
      // A card of another district, found as the super user (whose own login does not end the agent's session).
      const token = await storedToken(page);
      const me = (await fetch(`${server.url}/busline/api/user/query/msg`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as { data: { districtId: number } };
      const login = (await fetch(`${server.url}/busline/api/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) }).then((r) => r.json())) as { data: { idToken: string } };
      const admin = { authorization: `Bearer ${login.data.idToken}` };
      const districts = (await fetch(`${server.url}/busline/api/bus/district/page?size=1000`, { headers: admin }).then((r) => r.json())) as { data: { content: { id: number; name: string }[] } };
      const other = districts.data.content.find((d) => d.id !== me.data.districtId)!;
      const cards = (await fetch(`${server.url}/buscodepc/fyapi/busCard/page?size=1`, { headers: { ...admin, districtid: String(other.id) } }).then((r) => r.json())) as { data: { content: { cardNo: string }[] } };
      const cardNo = cards.data.content[0]!.cardNo;

      await page.keyboard.press('Control+k');
      await page.getByRole('dialog', { name: '命令面板' }).waitFor({ timeout: 10_000 });
      await page.keyboard.type(cardNo);
      await page.keyboard.press('Enter');
      const said = page.getByRole('main').getByRole('alert');
      await said.waitFor({ timeout: 10_000 });
      expect(await said.innerText()).toBe(`该卡属于 ${other.name}，当前账号无权查看`);
      expect(await page.getByText('当前用户没有权限操作').count()).toBe(0);

      // From the main region, where focus rests after the navigation: Tab, then Enter.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('返回上一页');
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/busUser/bus-user', { timeout: 5_000 });
      expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
