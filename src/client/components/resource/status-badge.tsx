import type { Code, StatusFlow, Tone } from '../../../shared/frame/status-flow';

const TONES: Record<Tone, string> = {
  green: 'bg-green-50 text-green-700',
  gray: 'bg-gray-100 text-gray-600',
  red: 'bg-red-50 text-red-700',
  amber: 'bg-amber-50 text-amber-800',
  blue: 'bg-blue-50 text-blue-700',
};

export const toneClass = (tone: Tone) => TONES[tone];

/** A status as its flow declares it: the label in the tone's colours (text, not colour alone). */
export function FlowBadge<C extends Code>({ flow, code }: { flow: StatusFlow<C>; code: C }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs ${TONES[flow.tone(code)]}`}>{flow.label(code)}</span>;
}
