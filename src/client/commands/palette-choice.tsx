import type { ChoiceOutcome } from '../components/resource/row-action';
import type { Choice } from './use-choice-step';
import type { PaletteItem } from './types';

interface Props {
  choice: Choice;
  /** The highlighted candidate's outcome: still asked, known, or none to ask. */
  outcome: ChoiceOutcome | 'loading' | undefined;
  highlighted: PaletteItem | undefined;
  busy: boolean;
}

/**
 * What an action's step does, above its candidates: the record and what happens to it, then what
 * Enter on the highlighted candidate would do (or why it cannot), then the server's refusal. The
 * highlighted row and these lines together are the confirmation: Enter runs it, no dialog follows.
 */
export function ChoiceNotes({ choice, outcome, highlighted, busy }: Props) {
  const intro = choice.action.choose.intro?.(choice.row);
  const blocked = typeof outcome === 'object' && outcome.blocked;
  return (
    <div className="space-y-1 px-4 pt-2 text-xs">
      {intro && <p className="text-gray-700">{intro}</p>}
      {highlighted && (
        <p role="status" className={blocked ? 'text-red-700' : 'text-gray-700'}>
          {busy ? '正在执行…' : outcome === 'loading' ? `正在查看选择「${highlighted.title}」的影响…` : outcome?.text ? `${blocked ? '' : 'Enter 确认：'}${outcome.text}` : null}
        </p>
      )}
      {choice.error && (
        <p role="alert" className="text-red-600">
          {choice.error}
        </p>
      )}
    </div>
  );
}
