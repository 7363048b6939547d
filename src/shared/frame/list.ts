import type { z } from 'zod';
import type { Endpoint } from '../api/endpoint';

/** An empty schema (`z.object({})`) reads as `Record<string, never>`: it adds no keys. */
type Known<T> = string extends keyof T ? unknown : T;

/** A list's input, wherever it travels: the query, or the JSON body of a body form (`readByBody`). */
export type ListInput<E extends Endpoint> = Known<z.input<E['query']>> & Known<z.input<E['body']>>;
export type ListArgs<E extends Endpoint> = Known<z.output<E['query']>> & Known<z.output<E['body']>>;

/** The filters of a list endpoint: its input's keys but paging and sort. */
export type FilterKeyOf<E extends Endpoint> = Exclude<keyof ListInput<E> & string, 'page' | 'size' | 'sort'>;

/** The fields a list endpoint sorts on, read off its `sort` schema (`pageQuery`). */
export type SortFieldOf<E extends Endpoint> = NonNullable<ListInput<E> extends { sort?: infer S } ? S : never> extends `${infer F},${'asc' | 'desc'}` ? F : never;

/** One row of a paged list endpoint's answer. */
export type RowOf<E extends Endpoint> = z.output<E['response']> extends { content: readonly (infer R)[] } ? R : z.output<E['response']> extends readonly (infer R)[] ? R : never;
