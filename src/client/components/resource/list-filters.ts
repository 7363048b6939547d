import { z } from 'zod';
import type { Endpoint } from '../../../shared/api';
import type { FilterKeyOf } from '../../../shared/frame/list';
import type { Code, StatusFlow } from '../../../shared/frame/status-flow';
import type { CallInput } from '../../lib/http';
import type { FilterDef, FilterOption, OptionSource } from '../filter-bar';

/** A list's filters as the bar shows them, by the endpoint's own names. */
export type FilterValues<E extends Endpoint> = Record<FilterKeyOf<E>, string>;

/**
 * A select's options from another call, inside list E's declaration: `input` reads E's filters by
 * their own names (a renamed filter fails `tsc` in the page), the answer is made options.
 */
export interface ListOptionSource<E extends Endpoint> extends OptionSource {
  input(values: FilterValues<E>): CallInput | null;
}

/** A filter field without its key: the declaration's object key is the key. */
export type FilterField<E extends Endpoint = Endpoint> =
  | { type: 'text'; label: string; placeholder?: string; maxLength?: number }
  | { type: 'select'; label: string; options: readonly FilterOption[]; source?: ListOptionSource<E> }
  | { type: 'datetime'; label: string; endOfDay?: boolean };

/** The filters of a list, keyed by the endpoint's own filter names (a renamed one fails `tsc`). */
export type FilterSpec<E extends Endpoint> = { [K in FilterKeyOf<E>]?: FilterField<E> };

export const textFilter = (label: string, more: { placeholder?: string; maxLength?: number } = {}): FilterField => ({ type: 'text', label, ...more });
export const timeFilter = (label: string, more: { endOfDay?: boolean } = {}): FilterField => ({ type: 'datetime', label, ...more });
const ALL: FilterOption = { value: '', label: '全部' };
/**
 * A select after 全部: options known here, or another call's (`optionsFrom`), read as the bar shows.
 * E, the list, is read off the declared type (`FilterField<typeof endpoint>`, as columns are
 * `ListColumn<typeof endpoint>`): inside `useResourceList({ endpoint, filters })` the compiler has
 * not inferred the list yet when it resolves this call, so a source whose input reads filters is
 * declared beside the columns. Left to itself E reads no filter at all, so it cannot compile wrong.
 */
export const choiceFilter = <E extends Endpoint = Endpoint>(label: string, options: readonly FilterOption[] | ListOptionSource<E>): FilterField<E> =>
  'endpoint' in options ? { type: 'select', label, options: [ALL], source: options } : { type: 'select', label, options: [ALL, ...options] };
/** A select over a code → label map of the contract (票种, 卡状态), in the map's order. */
export const codeFilter = (label: string, labels: Readonly<Record<string | number, string>>): FilterField =>
  choiceFilter(label, Object.entries(labels).map(([value, text]) => ({ value, label: text })));

/** What a source's call takes from list E's filters; it may be left out only when S takes no required input. */
type SourceInput<E extends Endpoint, S extends Endpoint> = (values: FilterValues<E>) => CallInput<S> | null;
type SourceInputArg<E extends Endpoint, S extends Endpoint> = object extends CallInput<S> ? [input?: SourceInput<E, S>] : [input: SourceInput<E, S>];

/**
 * A select's options from another call S: its answer, typed by its endpoint, made options; `input`
 * from list E's filters applied (a line's buses), typed by both: none only when S needs none.
 */
export const optionsFrom = <E extends Endpoint, S extends Endpoint>(
  endpoint: S,
  options: (data: z.output<S['response']>) => readonly FilterOption[],
  ...[input]: SourceInputArg<E, S>
): ListOptionSource<E> => ({
  endpoint,
  input: (input ?? (() => ({}))) as ListOptionSource<E>['input'],
  options: options as OptionSource['options'],
});
/** A status filter: its label and options are the flow's. */
export const flowFilter = <C extends Code>(flow: StatusFlow<C>, label = flow.name): FilterField => ({ type: 'select', label, options: flow.options });
/** A true/false filter with its two Chinese answers. */
export const yesNoFilter = (label: string, yes: string, no: string): FilterField => choiceFilter(label, [{ value: 'true', label: yes }, { value: 'false', label: no }]);

/** The longest text a schema field takes (through optional, default and transforms), when it says. */
function maxLengthOf(schema: z.ZodType | undefined): number | undefined {
  let s: unknown = schema;
  for (let i = 0; i < 6 && s; i++) {
    const def = (s as { def?: { type?: string; innerType?: unknown; in?: unknown } }).def;
    const max = (s as { maxLength?: number | null }).maxLength;
    if (typeof max === 'number') return max;
    s = def?.innerType ?? def?.in;
  }
  return undefined;
}

/**
 * The contract's schema with its cross-field rules (a range too long) and the `told` fields' own
 * rules set aside, for the address: a value of the wrong shape (a hand-edited link) is dropped, but
 * a range over the limit, or a value the user typed (12 digits of a card), must stay in the bar and
 * be told (the list's `guard`), not vanish from the query while still showing in its field.
 */
export function shapeOnly(schema: z.ZodType, told: readonly string[] = []): z.ZodType {
  return z.unknown().superRefine((value, ctx) => {
    const checked = schema.safeParse(value);
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      if (issue.code !== 'custom' && !told.includes(String(issue.path[0] ?? ''))) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });
}

/** What a schema refuses in these filters, in the contract's own Chinese (时间范围不能超过31天), or null. */
export function refusalOf(schema: z.ZodType, filters: Readonly<Record<string, string>>): string | null {
  const checked = schema.safeParse(filters);
  return checked.success ? null : (checked.error.issues[0]?.message ?? '查询条件有误');
}

/** The list schema the filters travel in: the query, or a body form's body. */
export const listSchema = (e: Endpoint): z.ZodType => (e.bodyFormOf ? e.body : e.query);

/** The fields of a list schema, by name. */
export const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> => (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};

/** FilterBar's fields from a declaration, in its order; a text field's length from the schema. */
export function filterDefs<E extends Endpoint>(endpoint: E, spec: FilterSpec<E>): FilterDef<FilterKeyOf<E>>[] {
  const shape = shapeOf(listSchema(endpoint));
  return (Object.entries(spec) as [FilterKeyOf<E>, FilterField<E> | undefined][]).flatMap(([key, f]): FilterDef<FilterKeyOf<E>>[] => {
    if (!f) return [];
    if (f.type === 'text') return [{ ...f, key, maxLength: f.maxLength ?? maxLengthOf(shape[key]) }];
    return [{ ...f, key }];
  });
}
