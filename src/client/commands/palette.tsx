import { Command as Cmdk } from 'cmdk';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { dropEarlyPalette } from '../lib/type-ahead';
import { useRomanize } from '../lib/use-romanize';
import type { EntitySource } from './entity-source';
import { PaletteFooter, PaletteHeader, PaletteResults } from './palette-parts';
import { type Step, emptyMessage, listRows, parseMode, stepRows } from './palette-rows';
import { argSteps } from './palette-steps';
import { type Panel, useEscapeGoesBack, usePanelControl, usePanelRows } from './use-action-panel';
import { ChoiceNotes } from './palette-choice';
import { useChoiceOutcome, useChoiceStep } from './use-choice-step';
import { choiceRequests, takeChoiceRequest, textOf } from '../components/resource/row-action';
import { useStore } from '../lib/store';
import { boostsOf, readRecents, recordRecent, removeRecent } from './recents';
import type { Command, CommandContext, PaletteItem } from './types';
import { useEnterQueue, useQueuedEnter } from './use-enter-queue';
import { useInlineRows } from './use-inline-rows';
import { useQueryCommands } from './use-query-commands';
import { usePaletteIndex } from './use-palette-index';
import { usePaletteRecords } from './use-palette-records';
import { movesSelection, usePaletteSelection } from './use-palette-selection';

export interface PaletteProps {
  open: boolean;
  /** Typed before the palette could open (type-ahead): the opening query, and whether Enter followed. */
  seed?: { text: string; enter: boolean } | null;
  onClose(): void;
  login: string;
  commands: readonly Command[];
  pages: readonly PaletteItem[];
  sources: readonly EntitySource[];
  /**
   * The features' commands and record sources are still on their way (app/feature-commands.ts): an
   * Enter typed meanwhile waits for them, as it waits for the records and the dictionary.
   */
  registryPending?: boolean;
  /**
   * Whether the account may open the page at this path (its menus hold it). Every record row is
   * checked by its own `path`, whatever its source declared: a row never leads to /404.
   */
  canOpen(path: string): boolean;
  ctx: CommandContext;
}

/**
 * Ctrl+K: one palette over pages, commands and records. cmdk is only the shell (no filtering of
 * its own); ranking is `shared/domain/search` over an index built once per list. The parts: the
 * records (use-palette-records), the index (use-palette-index), the rows (palette-rows), the
 * selection, the command's argument steps, a record's actions (use-action-panel) and the type-ahead
 * Enter queue; this joins them.
 */
export function Palette({ open, seed, onClose, login, commands, pages, sources, registryPending = false, canOpen, ctx }: PaletteProps) {
  const { romanize, done: dictionarySettled } = useRomanize();
  // Read when records arrive, which may be after a render with newer menus.
  const canOpenRef = useRef(canOpen);
  canOpenRef.current = canOpen;
  const [raw, setRaw] = useState('');
  const [step, setStep] = useState<Step | null>(null);
  // A record's actions (Tab or →): the input narrows them then, it is no query (no mode, no search).
  const [panel, setPanel] = useState<Panel | null>(null);
  // An action's step (合并到…): the input narrows its candidates.
  const choiceStep = useChoiceStep({ romanize, raw, setRaw });
  const choosing = choiceStep.active;
  const { mode, text } = panel || choosing ? { mode: 'all' as const, text: '' } : parseMode(raw);
  const restoreFocus = useReturnFocus(open);
  // In the commit that draws this palette: the stand-in index.html drew for an early Ctrl+K goes without a blank frame.
  useLayoutEffect(() => {
    if (open) dropEarlyPalette();
  }, [open]);
  const queue = useEnterQueue(open, seed, setRaw);
  const records = usePaletteRecords({ open, sources, canOpenRef, mode, text, asking: !!step, paused: !!panel || choosing });
  const { commandItems, pools, ready } = usePaletteIndex({ open, commands, pages, loaded: records.loaded, romanize });
  const recents = usePaletteRecents(login, open);
  const panelRows = usePanelRows({ panel, login, canOpen, romanize, actionsOf: records.actionsOf, filter: panel ? raw.trim() : '' });
  const { remote } = records;
  const inlineRows = useInlineRows({ mode, text, ready, actionsOf: records.actionsOf, availableOf: panelRows.availableOf });
  const queryRows = useQueryCommands({ open, mode: step ? 'commands' : mode, text, commands, romanize });
  const listItems: PaletteItem[] = useMemo(
    () =>
      step
        ? stepRows(step, text, raw, romanize)
        : [...inlineRows, ...queryRows.rows, ...listRows({ mode, text, ready, recents: recents.list, boosts: recents.boosts, commandItems, remote, sources, canOpen })],
    [step, text, raw, mode, commandItems, recents.list, ready, recents.boosts, remote, sources, canOpen, romanize, inlineRows, queryRows.rows],
  );
  const items = choosing ? choiceStep.rows : panel ? panelRows.rows : listItems;
  const listRef = useRef<HTMLDivElement>(null);
  const { selected, setSelected, userMoved } = usePaletteSelection(open, items, listRef);

  const close = () => {
    setRaw('');
    setStep(null);
    setPanel(null);
    choiceStep.reset();
    records.clearRemote();
    queue.reset();
    onClose();
    restoreFocus();
  };
  const finish = (item: PaletteItem, values: Record<string, string> = {}) => {
    recents.record(item);
    close();
    // In the next task, not inside the Enter's keydown: a dialog the command opens would otherwise
    // take focus before that same Enter's activation, which then presses the dialog's first button.
    setTimeout(() => {
      if (item.command) item.command.run(ctx, values);
      else item.run?.(ctx);
    }, 0);
  };
  const startChoice: typeof choiceStep.start = (...args) => {
    // An Enter waiting for the results is not the step's.
    queue.reset();
    choiceStep.start(...args);
    userMoved.current = false;
  };
  const backFromChoice = () => {
    const to = choiceStep.back();
    // Opened in the step (a table's row, Alt+M): there are no results to go back to.
    if (!to) return close();
    // The record stays highlighted, as the user left it.
    userMoved.current = true;
    setSelected(to.selected);
  };
  useEscapeGoesBack(choosing, backFromChoice);
  // A table's row asked for an action's step (合并到… on 站点): the palette opens in it.
  const requestCount = useStore(choiceRequests);
  useEffect(() => {
    const asked = open ? takeChoiceRequest() : null;
    if (asked) startChoice(asked.action, asked.row, asked.name, null);
    // Once per opening or request: the request was made just before it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, requestCount]);
  const steps = argSteps({ step, setStep, setRaw, finish });
  const choose = (key: string) => {
    const item = items.find((i) => i.key === key);
    if (!item || item.disabledReason) return;
    if (choosing) return void choiceStep.choose(key, close);
    if (panel) return panelControl.choose(key);
    if (step) return steps.submit(key, raw);
    // Typed text after the command becomes the first argument's value, when it is text.
    if (item.command?.args?.length) return void steps.start(item.command, 0, {});
    if (item.inline) return panelControl.runInline(item.inline);
    finish(item);
  };

  // Everything the query can match has arrived: the records of this opening and the dictionary.
  const settled = !registryPending && records.loadsPending === 0 && !queryRows.pending && dictionarySettled && !!ready && ready.items === pools && ready.romanized === !!romanize;
  const pick = () => (userMoved.current ? selected : items[0]?.key);
  const panelControl = usePanelControl({
    login,
    panel,
    setPanel,
    rows: panelRows,
    actionsOf: records.actionsOf,
    listItems,
    stepping: !!step,
    raw,
    setRaw,
    setSelected,
    userMoved,
    queue,
    settled,
    pick,
    close,
    recordRecent: recents.record,
    startChoice,
    ctx,
  });
  const highlighted = pick();
  const outcome = useChoiceOutcome(choiceStep, choosing ? highlighted : undefined);
  // An Enter typed ahead of the results chooses what they put first; never a change stated on a row
  // the person has not seen (a record and a value) nor a step's candidate (合并到…).
  const chooseQueued = (key: string) => {
    if (choosing || items.find((i) => i.key === key)?.inline) return;
    choose(key);
  };
  useQueuedEnter(queue, { open, settled, step, panelOpen: !!panel, raw, setRaw, items, pick, choose: chooseQueued, openPanel: panelControl.open });

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (movesSelection(e)) userMoved.current = true;
    // An Enter that confirms an IME composition is the input method's, never a row's.
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    if (queue.takeEnter(e)) return;
    if (choiceStep.keys(e, backFromChoice)) return;
    if (panelControl.keys(e)) return;
    // A typed number's lookup row (a card, a phone, a citizen id) is first whatever else arrives:
    // the agent's Enter opens it at once, without waiting for the palette's record lists.
    const lookupFirst = !userMoved.current && !!items[0]?.key.startsWith('sniff:') && !items[0].disabledReason;
    if (e.key === 'Enter' && !step && !panel && !choosing && !settled && !lookupFirst) {
      e.preventDefault();
      queue.hold();
    } else if (e.key === 'Backspace' && !raw && step) {
      e.preventDefault();
      steps.back();
    } else if (e.key === 'Delete' && e.shiftKey && !step && !panel && !text) recents.remove(selected);
  };
  const onType = (value: string) => {
    // Typed after an Enter that waits for results: the keys belong to what comes next.
    if (queue.takeTyping(value, raw)) return;
    setRaw(value);
    userMoved.current = false;
    steps.clearError();
    choiceStep.clearError();
  };

  return (
    <>
      <Cmdk.Dialog
        open={open}
        onOpenChange={(o) => (o ? undefined : close())}
        label="命令面板"
        shouldFilter={false}
        value={selected}
        // cmdk also reports its own automatic selection here, so only keys and the pointer mark a move.
        onValueChange={setSelected}
        loop
        overlayClassName="fixed inset-0 z-50 bg-black/30"
        contentClassName="fixed inset-x-0 top-[12vh] z-50 mx-auto w-[min(640px,calc(100vw-1.5rem))] overflow-hidden rounded-lg bg-white shadow-2xl"
      >
        <PaletteHeader
          step={step}
          panel={panel?.item.title ?? null}
          choice={choiceStep.choice ? { chip: `${textOf(choiceStep.choice.action.label, choiceStep.choice.row)} · ${choiceStep.choice.name}`, prompt: textOf(choiceStep.choice.action.choose.label, choiceStep.choice.row) } : null}
          raw={raw}
          mode={mode}
          onType={onType}
          onKeyDown={onKeyDown}
        />
        {choiceStep.choice && <ChoiceNotes choice={choiceStep.choice} outcome={outcome} highlighted={items.find((i) => i.key === highlighted)} busy={choiceStep.busy} />}
        <PaletteResults
          listRef={listRef}
          items={items}
          busy={choosing ? !choiceStep.choice?.options : !step && !panel && (!settled || records.remotePending)}
          empty={choiceStep.choice ? (choiceStep.choice.options ? choiceStep.choice.action.choose.empty : '正在加载…') : panel ? '没有匹配的操作' : emptyMessage(mode, text, pools[mode].length, sources, canOpen)}
          hasActions={panel || choosing ? () => false : panelRows.hasActions}
          chordsOf={panelRows.chordsOf}
          onSelect={choose}
          onPointerMove={() => (userMoved.current = true)}
        />
        <PaletteFooter inStep={!!step} inPanel={!!panel || (choosing && !!choiceStep.choice?.back)} count={items.length} />
      </Cmdk.Dialog>
      {panelControl.dialog}
    </>
  );
}

/**
 * Focus goes back where it was when the palette closes (Radix would send it to a trigger we lack),
 * unless a row navigated: then it is the new page's (its main region).
 */
function useReturnFocus(open: boolean): () => void {
  // Read by timers that outlive a render: is the palette open right now?
  const openRef = useRef(open);
  openRef.current = open;
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (open) returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  return () => {
    const target = returnFocus.current;
    const from = window.location.href;
    // Not if the palette is open again by then: Chromium may run a fast Ctrl+K and the keys after it
    // before this timer, and taking focus back out of the new opening would swallow them.
    setTimeout(() => {
      // Without scrolling: focus returning to the main region would scroll the shell and take the top
      // bar (breadcrumb, 区域, 下载中心, the user menu) out of view.
      if (!openRef.current && target?.isConnected && window.location.href === from) target.focus({ preventScroll: true });
    }, 0);
  };
}

/** The account's recent rows: shown on an empty query, and a boost in the ranking. */
function usePaletteRecents(login: string, open: boolean) {
  // Changes when a row is run or removed: the list is read again from storage then.
  const [version, setVersion] = useState(0);
  const list = useMemo(() => (open && version >= 0 ? readRecents(login) : []), [login, open, version]);
  const boosts = useMemo(() => boostsOf(list), [list]);
  return {
    list,
    boosts,
    record(item: PaletteItem) {
      recordRecent(login, { key: item.key, title: item.title, group: item.group });
      setVersion((v) => v + 1);
    },
    remove(key: string) {
      removeRecent(login, key);
      setVersion((v) => v + 1);
    },
  };
}
