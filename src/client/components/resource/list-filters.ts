import type { z } from 'zod';
import type { Endpoint } from '../../../shared/api';
import type { FilterKeyOf } from '../../../shared/frame/list';
import type { Code, StatusFlow } from '../../../shared/frame/status-flow';
import type { FilterDef, FilterOption } from '../filter-bar';

/** A filter field without its key: the declaration's object key is the key. */
export type FilterField =
  | { type: 'text'; label: string; placeholder?: string; maxLength?: number }
  | { type: 'select'; label: string; options: readonly FilterOption[] }
  | { type: 'datetime'; label: string; endOfDay?: boolean };

/** The filters of a list, keyed by the endpoint's own filter names (a renamed one fails `tsc`). */
export type FilterSpec<E extends Endpoint> = { [K in FilterKeyOf<E>]?: FilterField };

export const textFilter = (label: string, more: { placeholder?: string; maxLength?: number } = {}): FilterField => ({ type: 'text', label, ...more });
export const timeFilter = (label: string, more: { endOfDay?: boolean } = {}): FilterField => ({ type: 'datetime', label, ...more });
export const choiceFilter = (label: string, options: readonly FilterOption[]): FilterField => ({ type: 'select', label, options: [{ value: '', label: '全部' }, ...options] });
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

/** The list schema the filters travel in: the query, or a body form's body. */
export const listSchema = (e: Endpoint): z.ZodType => (e.bodyFormOf ? e.body : e.query);

/** FilterBar's fields from a declaration, in its order; a text field's length from the schema. */
export function filterDefs<E extends Endpoint>(endpoint: E, spec: FilterSpec<E>): FilterDef<FilterKeyOf<E>>[] {
  const shape = (listSchema(endpoint) as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return (Object.entries(spec) as [FilterKeyOf<E>, FilterField | undefined][]).flatMap(([key, f]): FilterDef<FilterKeyOf<E>>[] => {
    if (!f) return [];
    if (f.type === 'text') return [{ ...f, key, maxLength: f.maxLength ?? maxLengthOf(shape[key]) }];
    return [{ ...f, key }];
  });
}
