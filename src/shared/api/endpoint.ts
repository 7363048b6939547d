import { z } from 'zod';
import type { Permission } from './permissions';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type BodyType = 'none' | 'json' | 'form';

/** The two URL prefixes of spec §7; both are served by the reference server. */
export const BUSLINE = '/busline/api';
export const BUSCODE = '/buscodepc/fyapi';

export const DEFAULT_TIMEOUT_MS = 5_000;

const empty = z.object({});
type Empty = typeof empty;

export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** Stable name, e.g. `user.add`: SWR keys, audit and tests refer to it. */
  id: string;
  /** What it does, in Chinese. */
  title: string;
  method: Method;
  /** Full path; `:name` segments are filled from `params`. */
  path: string;
  params: P;
  query: Q;
  body: B;
  bodyType: BodyType;
  response: R;
  permission: Permission;
  timeoutMs: number;
  /** Answers with a file stream instead of the envelope. */
  file: boolean;
  /** A POST that only reads: its input (a citizen id, a phone) belongs in a body, not a URL. */
  readsOnly: boolean;
}

interface EndpointInput<P, Q, B, R> {
  id: string;
  title: string;
  method: Method;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  bodyType?: BodyType;
  response: R;
  permission: Permission;
  timeoutMs?: number;
  file?: boolean;
  readsOnly?: boolean;
}

export function endpoint<
  R extends z.ZodType,
  P extends z.ZodType = Empty,
  Q extends z.ZodType = Empty,
  B extends z.ZodType = Empty,
>(def: EndpointInput<P, Q, B, R>): Endpoint<P, Q, B, R> {
  const bodyType = def.bodyType ?? (def.body ? 'json' : 'none');
  return {
    ...def,
    params: (def.params ?? empty) as P,
    query: (def.query ?? empty) as Q,
    body: (def.body ?? empty) as B,
    bodyType,
    timeoutMs: def.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    file: def.file ?? false,
    readsOnly: def.readsOnly ?? false,
  };
}

export const isMutating = (e: Pick<Endpoint, 'method'> & Partial<Pick<Endpoint, 'readsOnly'>>) => e.method !== 'GET' && !e.readsOnly;

export type ParamsOf<E extends Endpoint> = z.input<E['params']>;
export type QueryOf<E extends Endpoint> = z.input<E['query']>;
export type BodyOf<E extends Endpoint> = z.input<E['body']>;
export type ResponseOf<E extends Endpoint> = z.output<E['response']>;

/** Fills `:name` segments; used by the client and by tests. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}
