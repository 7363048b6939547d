import { chromium } from 'playwright-core';
import { axeViolations } from '/work/main/tests/support/axe';
const base = 'http://127.0.0.1:8099';
const [, , user = 'manager', ...paths] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
for (const width of [1440, 375]) {
  const ctx = await browser.newContext({ viewport: { width, height: width === 375 ? 800 : 900 }, bypassCSP: true });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
  await page.goto(`${base}/login`);
  await page.getByLabel('用户名').fill(user);
  await page.locator('#login-password').fill('Bus@2026');
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  for (const p of paths) {
    const [path, action] = p.split('|');
    await page.goto(base + path);
    await page.waitForTimeout(1500);
    if (action) { for (const k of action.split(',')) { if (k.startsWith('focus:')) await page.locator(k.slice(6)).first().focus(); else if (k.startsWith('type:')) await page.keyboard.type(k.slice(5)); else await page.keyboard.press(k); } await page.waitForTimeout(500); }
    const name = `/tmp/shot-${path.replace(/[^a-z0-9]+/gi, '_')}-${width}.png`;
    await page.screenshot({ path: name, fullPage: false });
    const v = await axeViolations(page);
    console.log(width, path, name, 'axe:', v.length ? JSON.stringify(v, null, 1) : 0);
  }
  await ctx.close();
}
await browser.close();
