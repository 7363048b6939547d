import { z } from 'zod';

/** What a status is stored as: a number code, a string code, or a yes/no. */
export type Code = string | number | boolean;

/** The badge colours the console has; a status names one, the console owns what it looks like. */
export type Tone = 'green' | 'gray' | 'red' | 'amber' | 'blue';

export interface StatusDef<C extends Code> {
  code: C;
  label: string;
  tone: Tone;
}

interface FlowInput<C extends Code> {
  /** What the status is of, in Chinese (状态, 审核状态): filter labels and refusals use it. */
  name: string;
  /** Every code in the order the filter lists it. */
  states: readonly StatusDef<C>[];
  /** Who may go where, keyed by the code as text: a code missing here is final. */
  transitions?: Partial<Record<`${C}`, readonly C[]>>;
}

export interface StatusFlow<C extends Code> {
  name: string;
  states: readonly StatusDef<C>[];
  codes: readonly C[];
  /** The field as the contract answers it: one of the codes. */
  schema: z.ZodType<C, C>;
  /**
   * The same field as a list filter: the URL carries text, so `'1'` reaches the service as `1`.
   * Empty (全部) is the absent key.
   */
  filter: z.ZodType<C, string>;
  /** The filter's options, 全部 first. */
  options: readonly { value: string; label: string }[];
  label(code: C): string;
  tone(code: C): Tone;
  /** The codes a person may move a row to from `from`. */
  targets(from: C): readonly C[];
  can(from: C, to: C): boolean;
  /** The codes a move to `to` may start from: the server's `where status in (…)`. */
  sources(to: C): readonly C[];
  /** The Chinese refusal of a move the flow does not allow. */
  refusal(what: string, from: C, to: C): string;
}

/** `0 或 1`, `0–5` for a run of numbers, else the codes listed. */
function codesText(codes: readonly Code[]): string {
  const sorted = [...codes].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
  if (sorted.length === 2) return `${sorted[0]} 或 ${sorted[1]}`;
  const run = sorted.every((c, i) => typeof c === 'number' && (i === 0 || c === (sorted[i - 1] as number) + 1));
  return run ? `${sorted[0]}–${sorted[sorted.length - 1]}` : sorted.join('、');
}

/**
 * A status declared once (codes, Chinese labels, badge tones, allowed moves) gives the contract's
 * zod field, the list filter and its options, the console's badges and row actions, and the
 * server's guarded transition (`where status in sources(to)`), so no screen retypes a label.
 */
export function statusFlow<const C extends Code>(def: FlowInput<C>): StatusFlow<C> {
  const codes = def.states.map((s) => s.code);
  const byCode = new Map<C, StatusDef<C>>(def.states.map((s) => [s.code, s]));
  const kind = typeof codes[0];
  const error = `${def.name}应为 ${codesText(codes)}`;
  const schema = z.literal(codes as unknown as [C, ...C[]], { error }) as unknown as z.ZodType<C, C>;
  const filter = z
    .string({ error })
    .refine((v) => codes.some((c) => String(c) === v), { error })
    .transform((v) => (kind === 'number' ? Number(v) : kind === 'boolean' ? v === 'true' : v) as C);
  const transitions: Partial<Record<string, readonly C[]>> = def.transitions ?? {};
  const targets = (from: C) => transitions[String(from)] ?? [];
  const label = (code: C) => byCode.get(code)?.label ?? String(code);
  return {
    name: def.name,
    states: def.states,
    codes,
    schema,
    filter,
    options: [{ value: '', label: '全部' }, ...def.states.map((s) => ({ value: String(s.code), label: s.label }))],
    label,
    tone: (code) => byCode.get(code)?.tone ?? 'gray',
    targets,
    can: (from, to) => targets(from).includes(to),
    sources: (to) => codes.filter((c) => targets(c).includes(to)),
    refusal: (what, from, to) => `${what}不能从「${label(from)}」改为「${label(to)}」`,
  };
}

/** A 启用/停用 switch, the most common flow of all. */
export const onOffFlow = <const On extends Code, const Off extends Code>(
  name: string,
  on: { code: On; label: string },
  off: { code: Off; label: string },
) =>
  statusFlow<On | Off>({
    name,
    states: [
      { code: on.code, label: on.label, tone: 'green' },
      { code: off.code, label: off.label, tone: 'gray' },
    ],
    transitions: { [String(on.code)]: [off.code], [String(off.code)]: [on.code] } as unknown as Partial<Record<`${On | Off}`, readonly (On | Off)[]>>,
  });
