import { z } from 'zod';
import { wholeNumber } from './fields';

export const MAX_PAGE_SIZE = 1000;


/**
 * Spring-style paging: `page` from 0, `size`, `sort=field,asc|desc`.
 * Sort fields are an allow-list per endpoint so a query can never sort on an arbitrary column.
 */
export function pageQuery<const F extends readonly [string, ...string[]]>(sortFields: F) {
  return z.object({
    page: wholeNumber('页码', 0, 1_000_000).default(0),
    size: wholeNumber('每页条数', 1, MAX_PAGE_SIZE).default(20),
    // A template literal, not a regex: its input type is `field,asc|desc` over these fields, so a
    // column sorting on a field the list does not offer is a compile error in the console.
    sort: z
      .templateLiteral([z.enum(sortFields), ',', z.enum(['asc', 'desc'])], {
        error: `排序参数应为 字段,asc|desc，可用字段：${sortFields.join('、')}`,
      })
      .optional(),
  });
}

/** The `sort` value a list endpoint takes: `field,asc|desc`. */
export type SortValue<F extends string> = `${F},${'asc' | 'desc'}`;

export function parseSort<F extends string>(sort: string | undefined): { field: F; dir: 'asc' | 'desc' } | undefined {
  if (!sort) return undefined;
  const [field, dir] = sort.split(',');
  return { field: field as F, dir: dir === 'asc' ? 'asc' : 'desc' };
}

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
  });

export interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
}

export function toPage<T>(content: T[], totalElements: number, page: number, size: number): Page<T> {
  return { content, totalElements, totalPages: Math.ceil(totalElements / size), number: page, size };
}
