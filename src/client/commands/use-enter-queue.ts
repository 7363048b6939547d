import { useEffect, useRef, useState } from 'react';
import type { Step } from './palette-rows';
import type { PaletteItem } from './types';

/** An Enter typed before the records and the dictionary arrived waits for them this long at most. */
const ENTER_WAIT_MS = 3000;

type SetRaw = (next: string | ((prev: string) => string)) => void;

/**
 * An Enter pressed while records or the dictionary were still on their way runs when they arrive,
 * and keys typed behind it go to what it opens (a command's first argument), so hands that are
 * faster than the network lose nothing. A Tab waits the same way and opens the top record's actions,
 * the keys behind it narrowing them and an Enter behind it running one. `useEnterQueue` holds the
 * queue (it fills from a type-ahead seed when the palette opens); `useQueuedEnter` runs it once the
 * rows have settled.
 */
export function useEnterQueue(open: boolean, seed: { text: string; enter: boolean } | null | undefined, setRaw: SetRaw) {
  const [waiting, setWaiting] = useState(false);
  const [waitOver, setWaitOver] = useState(false);
  const pending = useRef({
    // The queue as the key handlers see it at once: the render that clears `waiting` may come after
    // the next keystroke, whose handler would still hold the old state.
    queued: false,
    typedAfter: '',
    // An Enter typed after the argument's keys, while the first Enter waited: submits that argument.
    enterAfter: false,
    // The queue has handed typed keys to a command's argument (or a record's actions), and the step showing them is not drawn yet.
    argHanded: false,
    // What waits: an Enter (run the row) or a Tab (show the row's actions).
    kind: 'enter' as 'enter' | 'tab',
  }).current;

  useEffect(() => {
    // Closing cleared the query; only a type-ahead seed fills it here, so keys typed into the input
    // before this effect ran are never wiped.
    if (!open || !seed) return;
    setRaw(seed.text);
    setWaiting(seed.enter);
    pending.queued = seed.enter;
    pending.kind = 'enter';
    // `seed` is read once per opening: it is what was typed before this opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  return {
    waiting,
    waitOver,
    setWaiting,
    setWaitOver,
    pending,
    /** Typed ahead of the results: the row is chosen (or its actions shown) when they are in, not from a partial list. */
    hold(kind: 'enter' | 'tab' = 'enter') {
      pending.queued = true;
      pending.kind = kind;
      setWaiting(true);
    },
    /**
     * An Enter while one already waits: it submits the keys typed behind the first as the argument
     * (behind a Tab: it runs the action those keys leave on top). True when it was the queue's.
     */
    takeEnter(e: React.KeyboardEvent): boolean {
      if (e.key !== 'Enter' || !(pending.queued || waiting)) return false;
      e.preventDefault();
      if (pending.typedAfter || pending.argHanded || (pending.queued && pending.kind === 'tab')) pending.enterAfter = true;
      return true;
    },
    /** The input changed while an Enter waits: the keys belong to what comes next. True when the queue took them. */
    takeTyping(value: string, raw: string): boolean {
      // The Enter chooses from the query as it was, and these keys belong to what comes next.
      if (pending.queued) {
        if (value.startsWith(raw)) pending.typedAfter += value.slice(raw.length);
        else pending.typedAfter = pending.typedAfter.slice(0, -1);
        return true;
      }
      if (waiting) {
        // The queue has just run but this handler is from before it: the key follows the text the
        // queue handed to the argument.
        const added = value.startsWith(raw) ? value.slice(raw.length) : null;
        setRaw((r) => (added === null ? r.slice(0, -1) : r + added));
        return true;
      }
      return false;
    },
    /** An Enter still waiting for results belongs to this opening only. */
    reset() {
      setWaiting(false);
      setWaitOver(false);
      Object.assign(pending, { queued: false, typedAfter: '', enterAfter: false, argHanded: false, kind: 'enter' });
    },
  };
}

export type EnterQueue = ReturnType<typeof useEnterQueue>;

interface QueueRun {
  open: boolean;
  /** Everything the query can match has arrived. */
  settled: boolean;
  step: Step | null;
  /** A record's actions show. */
  panelOpen: boolean;
  raw: string;
  setRaw: SetRaw;
  items: readonly PaletteItem[];
  /** The row the waiting Enter chooses: the user's selection if they moved it, else the top row. */
  pick(): string | undefined;
  choose(key: string): void;
  /** Shows a row's actions; false when it has none. */
  openPanel(key: string | undefined): boolean;
}

export function useQueuedEnter(q: EnterQueue, { open, settled, step, panelOpen, raw, setRaw, items, pick, choose, openPanel }: QueueRun) {
  const { waiting, waitOver, setWaiting, setWaitOver, pending } = q;
  useEffect(() => {
    if (!waiting || !open) return;
    if (!settled && !waitOver) {
      const timer = setTimeout(() => setWaitOver(true), ENTER_WAIT_MS);
      return () => clearTimeout(timer);
    }
    setWaiting(false);
    setWaitOver(false);
    pending.queued = false;
    const key = pick();
    const after = pending.typedAfter;
    pending.typedAfter = '';
    if (pending.kind === 'tab') {
      pending.kind = 'enter';
      // The keys typed behind the Tab narrow the actions; with no actions to show, they go back to the query.
      if (openPanel(key)) {
        setRaw(after);
        pending.argHanded = true;
        return;
      }
      const enter = pending.enterAfter;
      pending.enterAfter = false;
      // An Enter behind the Tab is not lost with the actions: it chooses the row, as Enter on it does.
      if (enter && key) choose(key);
      else if (after) setRaw((r) => r + after);
      return;
    }
    const asksNext = !!items.find((i) => i.key === key)?.command?.args?.length;
    if (key) choose(key);
    // A command that asks for an argument now has the keys typed meanwhile as its input.
    if (after && asksNext) {
      setRaw(after);
      pending.argHanded = true;
    } else pending.enterAfter = false;
    // `choose` is recreated each render; the queue runs once, when the results settle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting, settled, waitOver, open]);

  // The second Enter of `command Enter argument Enter` typed ahead: once the step shows the argument.
  // Of `record Tab action Enter`: once the record's actions show, narrowed by what was typed.
  useEffect(() => {
    if (step || panelOpen) pending.argHanded = false;
    if (!pending.enterAfter) return;
    if (panelOpen) {
      const top = items[0]?.key;
      pending.enterAfter = false;
      if (top) choose(top);
      return;
    }
    if (!step || !raw) return;
    pending.enterAfter = false;
    choose('arg:accept');
    // `choose` is recreated each render; this runs once, when the step (or the actions) and the text are in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step, raw, panelOpen, items]);
}
