import type { Dispatch, SetStateAction } from 'react';
import { type Step, commandItem } from './palette-rows';
import type { Command, PaletteItem } from './types';

interface StepDeps {
  step: Step | null;
  setStep: Dispatch<SetStateAction<Step | null>>;
  setRaw(raw: string): void;
  /** Runs the command once its last argument is in. */
  finish(item: PaletteItem, values: Record<string, string>): void;
}

/**
 * A command's arguments, asked inline one step at a time: each typed value is checked by its own
 * rule before the next step, Backspace on an empty input goes back, the last one runs the command.
 */
export function argSteps({ step, setStep, setRaw, finish }: StepDeps) {
  const start = async (command: Command, index: number, values: Record<string, string>) => {
    const arg = command.args?.[index];
    if (!arg) return finish(commandItem(command), values);
    setRaw('');
    setStep({ command, index, values, options: null, error: null });
    if (arg.kind === 'choice' && arg.options) {
      const options = await arg.options();
      setStep((s) => (s && s.command === command && s.index === index ? { ...s, options } : s));
    }
  };
  return {
    start,
    /** The row chosen in a step (an option, or the typed value's row): checked, then the next step. */
    submit(key: string, raw: string) {
      const arg = step?.command.args?.[step.index];
      if (!step || !arg) return;
      const value = key.startsWith('option:') ? key.slice('option:'.length) : raw.trim();
      if (!value && !arg.optional && arg.kind !== 'choice') return setStep({ ...step, error: `请输入${arg.label}` });
      const error = value ? (arg.validate?.(value, step.values) ?? null) : null;
      if (error) return setStep({ ...step, error });
      void start(step.command, step.index + 1, { ...step.values, [arg.name]: value });
    },
    /** Back a step; from the first step, back to the list. */
    back() {
      if (!step) return;
      if (step.index === 0) setStep(null);
      else void start(step.command, step.index - 1, step.values);
    },
    /** Typing again clears the last refusal. */
    clearError() {
      if (step?.error) setStep({ ...step, error: null });
    },
  };
}
