import { Command } from 'cmdk';
import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { EntityRecord, EntitySource } from '../../../src/client/commands/entity-source';
import { Palette } from '../../../src/client/commands/palette';
import type { CommandContext, PaletteItem } from '../../../src/client/commands/types';
import { SESSION } from '../../../src/shared/api';
import { type SearchEntry, buildIndex } from '../../../src/shared/domain/search';
import { romanize } from '../../../src/shared/domain/pinyin';
import type { BenchApi } from './bench-api';
import './bench.css';
import { type BenchData, RECORD_GROUP, benchData } from './entries';
import { createLongTaskLog, createProbe } from './probe';

/**
 * The palette benchmark page. `?variant=palette`: the project's Palette, fed commands and pages as
 * props and the stations and lines through a `load` EntitySource (no prefix, so they join the
 * `all` index with pages and commands and are ranked with pinyin). `?variant=cmdk`: a plain cmdk
 * dialog with its built-in filter over the same items, every one a `<Command.Item>` (the DESIGN §5
 * anchor). `&n=` the number of entries (default 50,000). Driven by tests/bench/palette-run.ts.
 */

const params = new URLSearchParams(location.search);
const variant = params.get('variant') === 'cmdk' ? 'cmdk' : 'palette';
const total = Number(params.get('n') ?? '50000');
const data = benchData(total);
const probe = createProbe();
const longTasks = createLongTaskLog();

const noop = () => undefined;
const ctx: CommandContext = { navigate: noop, setDistrict: noop, shell: noop, changed: noop };

/** The rows the palette's `all` pool holds, in its order (pages, commands, records), as it maps them. */
function allItems(d: BenchData): (PaletteItem & { keywords: string[] })[] {
  return [
    ...d.pages.map((p) => ({ ...p, keywords: [p.subtitle ?? ''] })),
    ...d.commands.map((c) => ({
      key: `command:${c.id}`,
      title: c.title,
      subtitle: c.args?.length ? `${c.group} · 需要输入` : c.group,
      group: '命令',
      hotkey: c.hotkey,
      keywords: [c.group, ...(c.keywords ?? [])],
    })),
    ...d.records.map((r) => ({ key: r.key, title: r.title, subtitle: r.subtitle, group: RECORD_GROUP, keywords: [r.subtitle ?? ''] })),
  ];
}

let hold = false;
let release: (() => void) | null = null;
function loadRecords(): Promise<EntityRecord[]> {
  if (!hold) return Promise.resolve(data.records);
  return new Promise((resolve) => {
    release = () => resolve(data.records);
  });
}

let setOpenFromDriver: (open: boolean) => void = noop;
/** Every bench record's page is open to the bench. */
const openAll = () => true;

function PaletteBench() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setOpenFromDriver = setOpen;
  }, []);
  const sources = useMemo<EntitySource[]>(() => [{ id: 'bench-records', group: RECORD_GROUP, permission: SESSION, page: '/bench', load: loadRecords }], []);
  return <Palette open={open} onClose={() => setOpen(false)} login="bench" commands={data.commands} pages={data.pages} sources={sources} canOpen={openAll} ctx={ctx} />;
}

/** cmdk with its own filter; markup and classes as the palette's, so only the filtering differs. */
function PlainCmdkBench() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setOpenFromDriver = setOpen;
  }, []);
  const groups = useMemo(() => {
    const map = new Map<string, ReturnType<typeof allItems>>();
    for (const i of allItems(data)) {
      const list = map.get(i.group);
      if (list) list.push(i);
      else map.set(i.group, [i]);
    }
    return [...map.entries()];
  }, []);
  return (
    <Command.Dialog
      open={open}
      onOpenChange={setOpen}
      label="命令面板"
      loop
      overlayClassName="fixed inset-0 z-50 bg-black/30"
      contentClassName="fixed inset-x-0 top-[12vh] z-50 mx-auto w-[min(640px,calc(100vw-1.5rem))] overflow-hidden rounded-lg bg-white shadow-2xl"
    >
      <div className="flex items-center gap-2 border-b border-gray-100 px-4">
        <Command.Input placeholder="搜索页面、命令和记录" className="h-12 w-full bg-transparent text-sm outline-none placeholder:text-gray-400" />
      </div>
      <Command.List className="max-h-[60vh] overflow-y-auto p-2">
        <Command.Empty className="px-3 py-6 text-center text-sm text-gray-400">没有匹配的结果</Command.Empty>
        {groups.map(([group, rows]) => (
          <Command.Group key={group} heading={group} className="mb-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-gray-400">
            {rows.map((item) => (
              <Command.Item
                key={item.key}
                value={item.title}
                keywords={item.keywords}
                className="flex cursor-pointer items-center gap-3 rounded px-2 py-2 text-sm text-gray-700 data-[selected=true]:bg-[var(--theme)]/10 data-[selected=true]:text-[var(--theme)]"
              >
                <span className="min-w-0 flex-1 truncate">
                  {item.title}
                  {item.subtitle && <span className="ml-2 text-xs text-gray-400">{item.subtitle}</span>}
                </span>
                {item.hotkey && <kbd className="shrink-0 rounded border border-gray-200 bg-gray-50 px-1.5 text-[11px] text-gray-500">{item.hotkey}</kbd>}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
    </Command.Dialog>
  );
}

const api: BenchApi = {
  variant,
  items: data.pages.length + data.commands.length + data.records.length,
  open: () => setOpenFromDriver(true),
  close: () => setOpenFromDriver(false),
  holdRecords: (h) => {
    hold = h;
  },
  releaseRecords: () => {
    probe.armNow();
    release?.();
    release = null;
  },
  arm: () => probe.arm(),
  armNow: () => probe.armNow(),
  settle: () => probe.settle(),
  settleRecords: () => probe.settle(() => [...document.querySelectorAll('[cmdk-group-heading]')].some((h) => h.textContent === RECORD_GROUP)),
  longTasksSince: (t) => longTasks.since(t),
  now: () => performance.now(),
  buildIndexAlone: () => {
    const entries: SearchEntry[] = allItems(data).map((i) => ({ id: i.key, title: i.title, keywords: i.keywords }));
    const t = performance.now();
    buildIndex(entries, romanize);
    return performance.now() - t;
  },
  state: () => {
    const input = document.querySelector<HTMLInputElement>('[cmdk-input]');
    return { rows: document.querySelectorAll('[cmdk-item]').length, inputFocused: !!input && document.activeElement === input, input: input?.value ?? '' };
  },
};
window.bench = api;

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');
createRoot(root).render(<StrictMode>{variant === 'cmdk' ? <PlainCmdkBench /> : <PaletteBench />}</StrictMode>);
