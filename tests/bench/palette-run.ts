/**
 * `npm run bench:palette`: keystroke → paint latency of the command palette in Debian's headless
 * Chromium, at 50,000 entries. A plain script, not a test: it asserts nothing about time, it
 * prints tables to paste into the README.
 *
 * Variants, each in a fresh page of one browser, over the same deterministic entries
 * (tests/bench/palette/entries.ts: 200 commands, 100 pages, the rest stations and lines):
 * - `palette`: the project's Palette (cmdk as a shell, shouldFilter={false}, ranking by
 *   shared/domain/search with pinyin, 50 rows), records arriving through a `load` EntitySource;
 *   also at 10,000, and at 300 (pages and commands only: the floor, what a keystroke costs with
 *   next to no ranking, frame alignment and the harness's own calls included);
 * - `cmdk`: a plain cmdk dialog with its built-in filter, every entry a <Command.Item>, at 10,000
 *   and 50,000 (DESIGN §5's anchor: 113–161 ms per keystroke at 10k, 632–756 ms at 50k).
 * How a keystroke is timed is explained in tests/bench/palette/probe.ts. Keystroke → paint waits
 * for the next frame (up to 16.7 ms at 60 Hz) even when no work is done: compare with the floor.
 *
 * Options (after `--`):
 * - `--only=palette` / `--only=cmdk`: one family of variants (the cmdk ones take most of the run);
 * - `--palette=<file>`: a candidate module in place of src/client/commands/palette.tsx, to measure
 *   a change before making it (its imports must be absolute paths or packages);
 * - `--profile`: the palette at 50k only, from an unminified build, with Chromium's CPU profiler
 *   on during the measured keystrokes; prints self time per source module and function.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { type Plugin, build, preview } from 'vite';
import { ROOT, freePort, launchChromium } from '../support/e2e';
import { percentile } from './lib';
import type {} from './palette/bench-api';
import type { Sample } from './palette/probe';
import { type CpuProfile, type SelfTime, moduleIndex, selfTime } from './palette-profile';

const PAGE_DIR = fileURLToPath(new URL('./palette/', import.meta.url));
const PROFILE = process.argv.includes('--profile');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** `--only=palette` or `--only=cmdk`: one variant family. */
const ONLY = arg('only');
/**
 * `--palette=<file>`: a candidate palette module used in place of src/client/commands/palette.tsx
 * (imports in it must be absolute or resolvable from its own folder), to measure a change before
 * making it.
 */
const CANDIDATE = arg('palette') ? path.resolve(arg('palette') as string) : undefined;

/** Chinese characters (IME-style commits), full pinyin (长 read chang), initials (重庆南路), digits. */
const QUERIES = ['人民广场', '长宁路', 'renmin', 'changshou', 'rmgc', 'cqnl', '49'];
const WARMUP = ['zs'];

/** Palette at 300 (pages and commands only): the floor, a keystroke with next to no ranking work. */
const VARIANTS: { variant: 'palette' | 'cmdk'; n: number }[] = [
  { variant: 'palette', n: 50_000 },
  { variant: 'palette', n: 10_000 },
  { variant: 'palette', n: 300 },
  { variant: 'cmdk', n: 10_000 },
  { variant: 'cmdk', n: 50_000 },
];

/** Chromium's cumulative main-thread counters (CDP Performance.getMetrics), in ms. */
interface Work {
  task: number;
  script: number;
  layout: number;
  style: number;
}

/**
 * A keystroke: the page's sample, plus the renderer main thread's work from just before the key
 * to the end of `settle` (Chromium's counters; the driver's own calls and the settle polling are
 * in it too, which the 300-entry floor shows).
 */
type Keystroke = Sample & { work: Work };

interface VariantResult {
  variant: 'palette' | 'cmdk';
  items: number;
  open: Sample;
  samples: Keystroke[];
  perQuery: { query: string; samples: Keystroke[] }[];
  /** Palette only: records released → re-ranked rows painted, and what reopening costs. */
  indexed?: { sample: Sample; longest: number; reopenLongest: number; reopenTotal: number; buildIndexAlone: number };
  profile?: SelfTime;
  errors: string[];
}

const T0 = Date.now();
const log = (s: string) => process.stderr.write(`bench:palette: ${((Date.now() - T0) / 1000).toFixed(0).padStart(3)} s  ${s}\n`);
const ms = (v: number) => (Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b);

async function settle(page: Page): Promise<Sample & { input: string; rows: number }> {
  return page.evaluate(async () => {
    const s = await window.bench!.settle();
    return { ...s, ...window.bench!.state() };
  });
}

/** Types `query` one character per sample (Latin: key events; Chinese: insertText, as an IME commit). */
async function typeQuery(page: Page, cdp: CDPSession, query: string, errors: string[]): Promise<Keystroke[]> {
  const samples: Keystroke[] = [];
  const chars = [...query];
  for (let i = 0; i < chars.length; i++) {
    await page.evaluate(() => window.bench!.arm());
    const before = await work(cdp);
    await page.keyboard.type(chars[i] as string);
    const s = await settle(page);
    const after = await work(cdp);
    const want = chars.slice(0, i + 1).join('');
    if (s.input !== want) errors.push(`typed "${want}", the input holds "${s.input}"`);
    if (s.timedOut) errors.push(`"${want}": no quiet within the settle limit`);
    samples.push({
      ...s,
      work: { task: after.task - before.task, script: after.script - before.script, layout: after.layout - before.layout, style: after.style - before.style },
    });
  }
  return samples;
}

async function clearInput(page: Page): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.evaluate(() => window.bench!.arm());
  await page.keyboard.press('Backspace');
  await settle(page);
}

async function work(cdp: CDPSession): Promise<Work> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return { task: get('TaskDuration'), script: get('ScriptDuration'), layout: get('LayoutDuration'), style: get('RecalcStyleDuration') };
}

async function runVariant(browser: Browser, url: string, bundle: { url: string; text: string } | null, variant: 'palette' | 'cmdk', n: number): Promise<VariantResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  try {
    await page.goto(`${url}?variant=${variant}&n=${n}`);
    await page.waitForFunction(() => !!window.bench, undefined, { timeout: 60_000 });
    const items = await page.evaluate(() => window.bench!.items);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    log(`${variant} @ ${items}: opening`);

    // 300 entries are the pages and commands alone: no load source records to wait for.
    const withRecords = variant === 'palette' && items > 300;
    if (withRecords) await page.evaluate(() => window.bench!.holdRecords(true));
    await page.evaluate(() => {
      window.bench!.armNow();
      window.bench!.open();
    });
    const open = await settle(page);
    if (!(await page.evaluate(() => window.bench!.state().inputFocused))) errors.push('the palette input had no focus after opening');

    let indexed: VariantResult['indexed'];
    if (withRecords) {
      // Entries → index ready: a query typed while the records load (pages and commands only),
      // then the records arrive; the sample ends at the paint of the re-ranked rows, after the
      // palette rebuilt its indexes (useMemo, in render) and ranked once.
      await typeQuery(page, cdp, '人民广场', errors);
      const t = await page.evaluate(() => window.bench!.now());
      await page.evaluate(() => window.bench!.releaseRecords());
      const sample = await page.evaluate(async () => ({ ...(await window.bench!.settleRecords()), ...window.bench!.state() }));
      if (sample.rows < 10) errors.push(`after the records arrived only ${sample.rows} rows show for 人民广场`);
      const { longest } = await page.evaluate((since) => window.bench!.longTasksSince(since), t);
      await page.evaluate(() => window.bench!.holdRecords(false));
      await clearInput(page);
      indexed = { sample, longest, reopenLongest: 0, reopenTotal: 0, buildIndexAlone: 0 };
    }

    log(`${variant} @ ${items}: warm-up`);
    for (const q of WARMUP) {
      await typeQuery(page, cdp, q, errors);
      await clearInput(page);
    }

    const profiling = PROFILE && variant === 'palette' && n === 50_000 && bundle;
    const profiles: CpuProfile[] = [];
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    }
    const perQuery: VariantResult['perQuery'] = [];
    for (const query of QUERIES) {
      log(`${variant} @ ${items}: ${query}`);
      if (profiling) await cdp.send('Profiler.start');
      perQuery.push({ query, samples: await typeQuery(page, cdp, query, errors) });
      // One profile per query: clearing the input in between is left out.
      if (profiling) profiles.push((await cdp.send('Profiler.stop')).profile as CpuProfile);
      await clearInput(page);
    }
    const profile = profiling && bundle ? selfTime(profiles, bundle.url, moduleIndex(bundle.text), bundle.text.split('\n')) : undefined;

    if (indexed) {
      // Every open calls `load` again; the new records array rebuilds every index.
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('[cmdk-input]'));
      const t = await page.evaluate(() => window.bench!.now());
      await page.evaluate(() => window.bench!.open());
      await page.waitForFunction(() => window.bench!.state().inputFocused, undefined, { timeout: 30_000 });
      await page.waitForTimeout(1000);
      const lt = await page.evaluate((since) => window.bench!.longTasksSince(since), t);
      indexed.reopenLongest = lt.longest;
      indexed.reopenTotal = lt.total;
      indexed.buildIndexAlone = await page.evaluate(() => window.bench!.buildIndexAlone());
    }
    return { variant, items, open, samples: perQuery.flatMap((q) => q.samples), perQuery, indexed, profile, errors };
  } finally {
    await context.close();
  }
}

function stats(samples: readonly Keystroke[], pick: (s: Keystroke) => number) {
  const xs = sortedOf(samples.map(pick));
  return { p50: percentile(xs, 50), p95: percentile(xs, 95), worst: xs[xs.length - 1] ?? Number.NaN };
}

const variantLabel = (r: VariantResult) =>
  r.variant === 'cmdk'
    ? 'plain cmdk, built-in filter, every item rendered'
    : r.items <= 300
      ? 'project `Palette`, pages and commands only (the floor)'
      : `project \`Palette\`${CANDIDATE ? ' (candidate)' : ''} (search.ts, pinyin, 50 rows)`;

function report(results: VariantResult[], chromium: string, wallS: number): string {
  const cpus = os.cpus();
  const lines = [
    '',
    `Command: \`npm run bench:palette\`${CANDIDATE ? ` (\`-- --palette=${CANDIDATE}\`: a candidate in place of src/client/commands/palette.tsx)` : ''}${PROFILE ? ' (`-- --profile`: unminified build, CPU profiler on during the 50k palette run)' : ''} — Node ${process.version}, ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${os.platform()} ${os.arch()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Chromium ${chromium} headless (Debian), 1280×800; production build (Vite, React 19, cmdk 1.1.1); whole run ${wallS.toFixed(0)} s.`,
    `Keystroke → paint of its final rows, measured in the page (tests/bench/palette/probe.ts); queries ${QUERIES.map((q) => `\`${q}\``).join(', ')} typed one character at a time after one warm-up (${WARMUP.join(', ')}).`,
    '',
    '| variant | items | keystrokes | p50 ms | p95 ms | worst ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...results.map((r) => {
      const s = stats(r.samples, (x) => x.latency);
      return `| ${variantLabel(r)} | ${r.items.toLocaleString('en-US')} | ${r.samples.length} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.worst)} |`;
    }),
    '',
    'Cross-checks and costs: the mean (as the DESIGN anchor gives it); the first paint after the event (INP-style); the Event Timing API (events ≥ 16 ms only, in 8 ms steps); the renderer main thread’s work per keystroke (Chromium’s counters, the driver’s calls and settle polling included: see the floor); opening the palette.',
    '',
    '| variant | items | mean ms | next paint p50 / p95 ms | Event Timing worst ms | main-thread task p50 / p95 ms | of it script / layout / style (mean) ms | open → painted ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map((r) => {
      const np = stats(r.samples, (x) => x.nextPaint);
      const et = stats(r.samples, (x) => x.eventTiming);
      const task = stats(r.samples, (x) => x.work.task);
      const mean = (f: (w: Work) => number) => r.samples.reduce((sum, x) => sum + f(x.work), 0) / (r.samples.length || 1);
      const parts = `${ms(mean((w) => w.script))} / ${ms(mean((w) => w.layout))} / ${ms(mean((w) => w.style))}`;
      const meanLatency = r.samples.reduce((sum, x) => sum + x.latency, 0) / (r.samples.length || 1);
      return `| ${r.variant} | ${r.items.toLocaleString('en-US')} | ${ms(meanLatency)} | ${ms(np.p50)} / ${ms(np.p95)} | ${et.worst ? ms(et.worst) : '< 16'} | ${ms(task.p50)} / ${ms(task.p95)} | ${parts} | ${ms(r.open.latency)} |`;
    }),
    '',
    'Per keystroke (ms), each query from an empty input:',
    '',
    '| variant | items | ' + QUERIES.map((q) => `\`${q}\``).join(' | ') + ' |',
    '| --- | ---: | ' + QUERIES.map(() => '---:').join(' | ') + ' |',
    ...results.map((r) => `| ${r.variant} | ${r.items.toLocaleString('en-US')} | ${r.perQuery.map((q) => q.samples.map((s) => ms(s.latency)).join(' ')).join(' | ')} |`),
    '',
  ];
  for (const r of results) {
    if (!r.indexed) continue;
    const ix = r.indexed;
    lines.push(
      `Palette at ${r.items.toLocaleString('en-US')}: records available → index rebuilt and \`人民广场\` re-ranked and painted: ${ms(ix.sample.latency)} ms (longest task ${ms(ix.longest)} ms); ` +
        `src \`buildIndex\` alone over the same entries, in the page: ${ms(ix.buildIndexAlone)} ms; reopening (load again, every index rebuilt): longest task ${ms(ix.reopenLongest)} ms, ${ms(ix.reopenTotal)} ms in long tasks.`,
    );
  }
  for (const r of results) {
    if (!r.profile) continue;
    const p = r.profile;
    lines.push(
      '',
      `CPU profile, palette at ${r.items.toLocaleString('en-US')}, ${r.samples.length} keystrokes: ${ms(p.totalMs)} ms busy (${ms(p.totalMs / r.samples.length)} ms per keystroke, settle polling included).`,
      '',
      '| module | self ms | share |',
      '| --- | ---: | ---: |',
      ...p.byModule.slice(0, 12).map(([m, t]) => `| ${m} | ${ms(t)} | ${((t / p.totalMs) * 100).toFixed(0)} % |`),
      '',
      '| function · module | self ms |',
      '| --- | ---: |',
      ...p.byFunction.slice(0, 20).map(([f, t]) => `| ${f.replace(/\|/g, '\\|')} | ${ms(t)} |`),
    );
  }
  const errors = results.flatMap((r) => r.errors.map((e) => `${r.variant}@${r.items}: ${e}`));
  if (errors.length) lines.push('', `Problems seen (${errors.length}):`, ...errors.slice(0, 20).map((e) => `- ${e}`));
  lines.push('');
  return lines.join('\n');
}

function candidatePalette(file: string): Plugin {
  return {
    name: 'bench-candidate-palette',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer?.startsWith(PAGE_DIR) && source.endsWith('/commands/palette')) return file;
      // Packages imported by a candidate outside the project resolve from the project.
      if (importer && !importer.startsWith(ROOT) && !/^[./]/.test(source)) return this.resolve(source, path.join(PAGE_DIR, 'main.tsx'), { skipSelf: true });
      return null;
    },
  };
}

async function main() {
  const started = Date.now();
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bus-console-palette-bench-'));
  let server: Awaited<ReturnType<typeof preview>> | undefined;
  let browser: Browser | undefined;
  try {
    log(`building the bench page${PROFILE ? ' (unminified, for the profile)' : ''}...`);
    await build({
      root: PAGE_DIR,
      configFile: false,
      logLevel: 'warn',
      plugins: [react(), tailwindcss(), ...(CANDIDATE ? [candidatePalette(CANDIDATE)] : [])],
      build: { outDir, emptyOutDir: true, minify: !PROFILE, chunkSizeWarningLimit: 4000, reportCompressedSize: false },
    });
    const port = await freePort();
    server = await preview({ root: PAGE_DIR, configFile: false, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port, strictPort: true } });
    const url = `http://127.0.0.1:${port}/`;
    const js = fs.readdirSync(path.join(outDir, 'assets')).find((f) => f.endsWith('.js'));
    const bundle = PROFILE && js ? { url: `${url}assets/${js}`, text: fs.readFileSync(path.join(outDir, 'assets', js), 'utf8') } : null;

    browser = await launchChromium();
    const results: VariantResult[] = [];
    // The profile is of the palette at 50k only; the other variants would only lengthen the run.
    const variants = PROFILE ? VARIANTS.slice(0, 1) : VARIANTS.filter((v) => !ONLY || v.variant === ONLY);
    for (const v of variants) results.push(await runVariant(browser, url, bundle, v.variant, v.n));
    console.log(report(results, browser.version(), (Date.now() - started) / 1000));
  } finally {
    await browser?.close();
    await server?.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error('bench:palette failed:', err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
