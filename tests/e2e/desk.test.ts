import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { holdsPersonalNumber, maskPhone } from '../../src/shared/domain/mask';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { apiAs, loginThroughPage, openConsole, settled, storedToken, watchPaint } from '../support/e2e-console';
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
      await settled(page);
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
      const holder = page.getByRole('region', { name: '持卡人', exact: true });
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
      await settled(page);
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

/** A phone or a citizen id standing alone in a URL (not digits inside a longer number such as `_t`). */
const PHONE_IN_URL = /(?<!\d)1[3-9]\d{9}(?!\d)/;
const CITIZEN_IN_URL = /(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])/;
/** Query keys that carry a name search: a typed number must never be sent through them. */
const NAME_SEARCH_KEYS = new Set(['name', 'keyword', 'q']);

/** What is wrong with one request URL the console sent, if anything (issue 19 B10). */
function urlProblems(url: string, secrets: readonly string[]): string[] {
  const u = new URL(url);
  const problems: string[] = [];
  const where = `${u.pathname}${u.search}`;
  let decoded = where;
  try {
    decoded = decodeURIComponent(where);
  } catch {
    // A malformed escape keeps the raw text, which is checked all the same.
  }
  for (const v of secrets) if (where.includes(v) || decoded.includes(v)) problems.push(`${where}: holds ${v === DEMO_PASSWORD ? 'the password' : v}`);
  for (const [k, v] of u.searchParams) {
    if (/^(pwd|password|passwd)$/i.test(k)) problems.push(`${where}: ${k}=`);
    if (PHONE_IN_URL.test(v)) problems.push(`${where}: a phone in ${k}`);
    if (CITIZEN_IN_URL.test(v)) problems.push(`${where}: a citizen id in ${k}`);
    if (NAME_SEARCH_KEYS.has(k) && holdsPersonalNumber(v)) problems.push(`${where}: a number typed as a ${k} search`);
  }
  return problems;
}

describe('personal data stays out of request URLs (issue 19 B10)', () => {
  it_('the desk\'s flows (palette by phone and id, 乘客用户 filters, 查看实名, 绑定关系 filter, export, 修改关系, 解绑) send no phone, citizen id, typed number or password in any URL', async () => {
    const { context, page, errors } = await openConsole(browser!);
    const urls: { method: string; url: string }[] = [];
    context.on('request', (r) => urls.push({ method: r.method(), url: r.url() }));
    try {
      await page.goto(`${server.url}/login`);
      await loginThroughPage(page, 'agent');
      await settled(page);
      // The demo data's values, read with the agent's own session from outside the browser (not recorded).
      const token = await storedToken(page);
      const fyapi = apiAs(server.url, token);
      const api = <T>(path: string, body?: unknown) => fyapi<T>(`/buscodepc/fyapi/${path}`, body);
      const reveal = (id: number) => api<{ phone: string; citizenId: string | null }>('wx-user/getShiMingXinXiById', { id, reason: '测试取演示数据' });
      const cards = await api<{ content: { cardNo: string; holder: { id: number } | null }[] }>('busCard/page?size=100&state=1');
      let rider: { phone: string; citizenId: string } | null = null;
      for (const c of cards.content) {
        if (!c.holder) continue;
        const r = await reveal(c.holder.id);
        if (r.citizenId) {
          rider = { phone: r.phone, citizenId: r.citizenId };
          break;
        }
      }
      expect(rider).not.toBeNull();
      const { phone, citizenId } = rider!;
      const bindings = await api<{ content: { cardNo: string; holder: { id: number } }[] }>('familyCard/bind/page?size=2&status=1');
      expect(bindings.content).toHaveLength(2);
      const [toUpdate, toUnbind] = bindings.content as [(typeof bindings.content)[0], (typeof bindings.content)[0]];
      const binderId = (await reveal(toUnbind.holder.id)).citizenId!;
      const updateBinderId = (await reveal(toUpdate.holder.id)).citizenId!;
      const secrets = [phone, citizenId, binderId, updateBinderId, DEMO_PASSWORD, encodeURIComponent(DEMO_PASSWORD)];
      urls.length = 0;

      // The palette: a phone, then a citizen id, each looked up and opened.
      const lookedUp = () => urls.filter((r) => r.method === 'POST' && r.url.includes('/card/lookup')).length;
      for (const typed of [`${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`, citizenId]) {
        const before = lookedUp();
        await page.keyboard.press('Control+k');
        const palette = page.getByRole('dialog', { name: '命令面板' });
        await palette.waitFor({ timeout: 10_000 });
        await page.keyboard.type(typed);
        // The debounced record search runs every query source at once: card/lookup's POST is among them.
        await expect.poll(lookedUp, { timeout: 5_000 }).toBeGreaterThan(before);
        await page.keyboard.press('Enter');
        await page.getByText('卡片详情').first().waitFor({ timeout: 10_000 });
        await expect.poll(() => palette.count()).toBe(0);
      }

      // 乘客用户: the phone filter, then the citizen id filter; then 查看实名 from the list with a reason.
      await page.goto(`${server.url}/busUser/bus-user`);
      const filters = page.getByRole('search');
      const riderRows = page.getByRole('table', { name: '乘客用户列表' }).getByRole('row');
      await filters.getByLabel('手机号').fill(phone);
      await filters.getByLabel('手机号').press('Enter');
      await expect.poll(() => riderRows.count(), { timeout: 10_000 }).toBe(2);
      await expect.poll(() => riderRows.nth(1).innerText()).toContain(maskPhone(phone));
      await filters.getByLabel('手机号').fill('');
      await filters.getByLabel('身份证号').fill(citizenId);
      await filters.getByLabel('身份证号').press('Enter');
      await expect.poll(() => riderRows.nth(1).innerText(), { timeout: 10_000 }).toContain(maskPhone(phone));
      await expect.poll(() => riderRows.count()).toBe(2);
      await page.getByRole('button', { name: `查看实名信息 ${maskPhone(phone)}` }).click();
      const revealDialog = page.getByRole('dialog', { name: '查看实名信息' });
      await revealDialog.getByLabel(/查看原因/).fill(`来电号码 ${phone} 核实`);
      await page.keyboard.press('Enter');
      await expect.poll(() => revealDialog.innerText(), { timeout: 5_000 }).toContain(phone);
      await page.keyboard.press('Escape');
      await expect.poll(() => revealDialog.count()).toBe(0);

      // 绑定关系: the binder's citizen id as a filter, the export of what it shows, 修改关系 and 解绑 with the password.
      await page.goto(`${server.url}/callingCard/family-bind`);
      const bindRows = page.getByRole('table', { name: '亲情卡绑定列表' }).getByRole('row');
      await filters.getByLabel('身份证号').fill(updateBinderId);
      await filters.getByLabel('身份证号').press('Enter');
      await expect.poll(() => bindRows.nth(1).innerText(), { timeout: 10_000 }).toContain(toUpdate.cardNo);
      const download = page.waitForEvent('download', { timeout: 15_000 });
      await page.getByRole('button', { name: '导出 Excel' }).click();
      await download;
      await page.getByRole('button', { name: `修改关系 ${toUpdate.cardNo}` }).click();
      const relation = page.getByRole('dialog', { name: `修改关系 · ${toUpdate.cardNo}` });
      await relation.getByLabel(/关系/).fill('外甥');
      await relation.getByLabel(/您的登录密码/).fill(DEMO_PASSWORD);
      await page.keyboard.press('Enter');
      await expect.poll(() => relation.count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => bindRows.nth(1).innerText(), { timeout: 10_000 }).toContain('外甥');
      await filters.getByLabel('身份证号').fill(binderId);
      await filters.getByLabel('身份证号').press('Enter');
      await expect.poll(() => bindRows.nth(1).innerText(), { timeout: 10_000 }).toContain(toUnbind.cardNo);
      await page.getByRole('button', { name: `解绑 ${toUnbind.cardNo}` }).click();
      const unbind = page.getByRole('dialog', { name: `解绑亲情卡 · ${toUnbind.cardNo}` });
      await unbind.getByLabel(/绑定人身份证号/).fill(binderId);
      await unbind.getByLabel(/您的登录密码/).fill(DEMO_PASSWORD);
      await page.keyboard.press('Enter');
      await expect.poll(() => unbind.count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => bindRows.nth(1).innerText(), { timeout: 10_000 }).toContain('已解绑');

      // Every URL the browser sent in these flows; and not a vacuous list: the body forms were used.
      console.log(`[e2e desk] ${urls.length} request URLs recorded in the desk's flows`);
      expect(urls.flatMap((r) => urlProblems(r.url, secrets))).toEqual([]);
      const sent = (method: string, path: string) => urls.some((r) => r.method === method && new URL(r.url).pathname.endsWith(path));
      expect(urls.length).toBeGreaterThan(20);
      for (const [method, path] of [
        ['POST', '/card/lookup'],
        ['POST', '/wx-user/page'],
        ['POST', '/wx-user/getShiMingXinXiById'],
        ['POST', '/familyCard/bind/page'],
        ['POST', '/familyCard/bind/summary'],
        ['POST', '/familyCard/bind/export'],
        ['POST', '/familyCard/bind/updateBind/body'],
        ['POST', '/familyCard/bind/unBind/body'],
      ] as const)
        expect(sent(method, path), `${method} ${path}`).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
