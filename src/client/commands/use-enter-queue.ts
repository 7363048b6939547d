import { useEffect, useRef, useState } from 'react';
import type { Step } from './palette-rows';
import type { PaletteItem } from './types';

/** An Enter typed before the records and the dictionary arrived waits for them this long at most. */
const ENTER_WAIT_MS = 3000;

type SetRaw = (next: string | ((prev: string) => string)) => void;

/**
 * An Enter pressed while records or the dictionary were still on their way runs when they arrive,
 * and keys typed behind it go to what it opens (a command's first argument), so hands that are
 * faster than the network lose nothing. `useEnterQueue` holds the queue (it fills from a type-ahead
 * seed when the palette opens); `useQueuedEnter` runs it once the rows have settled.
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
    // The queue has handed typed keys to a command's argument, and the step showing them is not drawn yet.
    argHanded: false,
  }).current;

  useEffect(() => {
    // Closing cleared the query; only a type-ahead seed fills it here, so keys typed into the input
    // before this effect ran are never wiped.
    if (!open || !seed) return;
    setRaw(seed.text);
    setWaiting(seed.enter);
    pending.queued = seed.enter;
    // `seed` is read once per opening: it is what was typed before this opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  return {
    waiting,
    waitOver,
    setWaiting,
    setWaitOver,
    pending,
    /** Typed ahead of the results: the row is chosen when they are in, not from a partial list. */
    hold() {
      pending.queued = true;
      setWaiting(true);
    },
    /** An Enter while one already waits: it submits the keys typed behind the first as the argument. True when it was the queue's. */
    takeEnter(e: React.KeyboardEvent): boolean {
      if (e.key !== 'Enter' || !(pending.queued || waiting)) return false;
      e.preventDefault();
      if (pending.typedAfter || pending.argHanded) pending.enterAfter = true;
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
      Object.assign(pending, { queued: false, typedAfter: '', enterAfter: false, argHanded: false });
    },
  };
}

export type EnterQueue = ReturnType<typeof useEnterQueue>;

interface QueueRun {
  open: boolean;
  /** Everything the query can match has arrived. */
  settled: boolean;
  step: Step | null;
  raw: string;
  setRaw: SetRaw;
  items: readonly PaletteItem[];
  /** The row the waiting Enter chooses: the user's selection if they moved it, else the top row. */
  pick(): string | undefined;
  choose(key: string): void;
}

export function useQueuedEnter(q: EnterQueue, { open, settled, step, raw, setRaw, items, pick, choose }: QueueRun) {
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
  useEffect(() => {
    if (step) pending.argHanded = false;
    if (!pending.enterAfter || !step || !raw) return;
    pending.enterAfter = false;
    choose('arg:accept');
    // `choose` is recreated each render; this runs once, when the step and its text are in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step, raw]);
}
