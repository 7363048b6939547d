import { useEffect, useMemo, useRef, useState } from 'react';
import { type Romanize, buildIndex, createSearcher } from '../../shared/domain/search';
import { type ChoiceOutcome, type ChooseAction, textOf } from '../components/resource/row-action';
import { useRevalidate } from '../lib/revalidate';
import { toast } from '../lib/toast';
import { ROWS } from './palette-rows';
import type { PaletteItem } from './types';

// A record's action that needs one more record (合并到…), asked as a palette step: its candidates
// ranked (best first, then by what is typed), the highlighted one's outcome fetched and shown before
// Enter, one call on Enter. A refusal (the outcome's or the server's) stays in the step, in words;
// the palette closes only when the call succeeded.

const CHOICE_KEY = 'choice:';

/** The step on screen: the action, the row as it was when asked, its candidates once loaded. */
export interface Choice {
  action: ChooseAction<unknown>;
  row: unknown;
  /** The record's name: the step's heading. */
  name: string;
  /** The results to go back to (the record highlighted); null when a table's row asked. */
  back: { raw: string; selected: string } | null;
  options: readonly unknown[] | null;
  error: string | null;
}

type Outcome = ChoiceOutcome | 'loading';

interface Deps {
  romanize: Romanize | null;
  raw: string;
  setRaw(raw: string): void;
}

const messageOf = (e: unknown) => (e instanceof Error && e.message ? e.message : '操作失败，请重试');

export function useChoiceStep({ romanize, raw, setRaw }: Deps) {
  const [choice, setChoice] = useState<Choice | null>(null);
  const [busy, setBusy] = useState(false);
  const revalidate = useRevalidate();
  // One question per candidate and step: moving back over a row does not ask again.
  const outcomes = useRef(new Map<string, Promise<ChoiceOutcome>>());
  const [shown, setShown] = useState<Record<string, Outcome>>({});

  const show = (c: Choice, o: unknown) => c.action.choose.show(o, c.row);
  const rows = useMemo((): PaletteItem[] => {
    if (!choice?.options) return [];
    const group = textOf(choice.action.choose.label, choice.row);
    const all = choice.options.map((o) => ({ o, r: show(choice, o) }));
    const text = raw.trim();
    const ranked = text
      ? createSearcher(buildIndex(all.map(({ r }) => ({ id: r.id, title: r.title, keywords: [r.subtitle ?? '', ...(r.keywords ?? [])] })), romanize ?? undefined))(text, { limit: ROWS }).flatMap(
          (m) => all.filter((x) => x.r.id === m.id),
        )
      : all.slice(0, ROWS);
    return ranked.map(({ r }) => ({ key: `${CHOICE_KEY}${r.id}`, title: r.title, subtitle: r.subtitle, group }));
  }, [choice, raw, romanize]);

  const optionOf = (c: Choice, key: string) => c.options?.find((o) => `${CHOICE_KEY}${show(c, o).id}` === key);
  const outcomeOf = (c: Choice, key: string, o: unknown): Promise<ChoiceOutcome> => {
    const ask = c.action.choose.outcome;
    if (!ask) return Promise.resolve({ text: '' });
    let p = outcomes.current.get(key);
    if (!p) {
      p = ask(c.row, o).catch((e: unknown) => ({ text: messageOf(e), blocked: true }));
      outcomes.current.set(key, p);
    }
    return p;
  };

  const start = (action: ChooseAction<unknown>, row: unknown, name: string, back: Choice['back']) => {
    outcomes.current.clear();
    setShown({});
    const c: Choice = { action, row, name, back, options: null, error: null };
    setChoice(c);
    setRaw('');
    action.choose.options(row).then(
      (options) => setChoice((now) => (now?.action === action && now.row === row ? { ...now, options } : now)),
      (e: unknown) => setChoice((now) => (now?.action === action && now.row === row ? { ...now, options: [], error: messageOf(e) } : now)),
    );
  };

  /** Back to the results, with what was typed there; returns the record to highlight again. */
  const back = (): Choice['back'] => {
    const from = choice;
    setChoice(null);
    setRaw(from?.back?.raw ?? '');
    return from?.back ?? null;
  };

  return {
    choice,
    active: !!choice,
    rows,
    busy,
    start,
    back,
    /** What choosing the highlighted candidate would do: asked once, when it is first highlighted. */
    ask(highlighted: string | undefined) {
      const c = choice;
      if (!c || !highlighted || shown[highlighted] || !c.action.choose.outcome) return;
      const o = optionOf(c, highlighted);
      if (o === undefined) return;
      setShown((s) => ({ ...s, [highlighted]: 'loading' }));
      void outcomeOf(c, highlighted, o).then((out) => setShown((s) => ({ ...s, [highlighted]: out })));
    },
    outcome: (highlighted: string | undefined): Outcome | undefined => (highlighted ? shown[highlighted] : undefined),
    /** Enter on a candidate: refused in words when the outcome says it cannot, else the one call. */
    async choose(key: string, close: () => void) {
      const c = choice;
      const o = c && optionOf(c, key);
      if (!c || o === undefined || busy) return;
      // The highlighted row and its outcome are the question: an Enter before the outcome is on
      // screen runs nothing (it cannot be undone), it only waits to be pressed again.
      const seen = c.action.choose.outcome ? shown[key] : { text: '' };
      if (!seen || seen === 'loading') return;
      setBusy(true);
      try {
        const out = seen;
        if (out.blocked) return setChoice((now) => (now === c ? { ...now, error: out.text } : now));
        const answer = await c.action.choose.run(c.row, o);
        close();
        toast.success(c.action.choose.done(c.row, o, answer));
        void revalidate(c.action.endpoint);
      } catch (e) {
        // The server refused: the step says why and stays for another choice or Esc.
        setChoice((now) => (now === c ? { ...now, error: messageOf(e) } : now));
      } finally {
        setBusy(false);
      }
    },
    /** Backspace on an empty input, ← at its start, Shift+Tab go back; Tab stays. True when the key was the step's. */
    keys(e: React.KeyboardEvent<HTMLInputElement>, back: () => void): boolean {
      if (!choice) return false;
      const input = e.currentTarget;
      const atStart = input.selectionStart === 0 && input.selectionEnd === 0;
      if ((e.key === 'ArrowLeft' && atStart) || (e.key === 'Tab' && e.shiftKey) || (e.key === 'Backspace' && !raw)) {
        e.preventDefault();
        back();
        return true;
      }
      if (e.key === 'Tab' || (e.altKey && /^Key[A-Z]$/.test(e.code))) {
        e.preventDefault();
        return true;
      }
      return false;
    },
    clearError() {
      if (choice?.error) setChoice({ ...choice, error: null });
    },
    reset() {
      setChoice(null);
      outcomes.current.clear();
      setShown({});
    },
  };
}

/** Asks the highlighted candidate's outcome whenever the highlight or the step changes. */
export function useChoiceOutcome(step: ReturnType<typeof useChoiceStep>, highlighted: string | undefined) {
  const { choice, rows } = step;
  const ask = useRef(step.ask);
  ask.current = step.ask;
  useEffect(() => ask.current(highlighted), [choice, rows, highlighted]);
  return step.outcome(highlighted);
}
