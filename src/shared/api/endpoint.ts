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
  /** A spec GET that changes data (上架/下架): a change all the same, published and never a read. */
  mutates: boolean;
  /**
   * The spec call whose input this one takes as a JSON body instead of in the query (README decision
   * on request URLs): same permission, scope, masking and answer; the console sends personal data
   * and passwords only through these.
   */
  bodyFormOf: string | null;
  /**
   * Resource tags (README: the resource frame): what a read shows and what a change alters. After a
   * change the console refetches every read sharing a tag, so no screen lists endpoints to refresh.
   * Unset means the owning module's id (src/shared/modules: `tagsOf`).
   */
  reads: readonly string[] | null;
  writes: readonly string[] | null;
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
  mutates?: boolean;
  bodyFormOf?: string;
  reads?: readonly string[];
  writes?: readonly string[];
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
    mutates: def.mutates ?? false,
    bodyFormOf: def.bodyFormOf ?? null,
    reads: def.reads ?? null,
    writes: def.writes ?? null,
  };
}

/**
 * The body form of a spec GET whose query may carry a phone, a citizen id or a card number typed as
 * a search: a POST at the same path that only reads, taking the very query schema as its JSON body,
 * with the same permission, timeout, answer (or file). Proxies, access logs and saved HAR files keep
 * URLs; they do not keep bodies.
 */
export function readByBody<Q extends z.ZodType, R extends z.ZodType>(spec: Endpoint<Empty, Q, z.ZodType, R>, def: { id: string; title: string }): Endpoint<Empty, Empty, Q, R> {
  if (spec.method !== 'GET') throw new Error(`${spec.id}: only a GET has a body form at its own path`);
  return endpoint({
    id: def.id,
    title: def.title,
    method: 'POST',
    path: spec.path,
    body: spec.query,
    response: spec.response,
    permission: spec.permission,
    timeoutMs: spec.timeoutMs,
    file: spec.file,
    readsOnly: true,
    bodyFormOf: spec.id,
    ...(spec.reads ? { reads: spec.reads } : {}),
  });
}

export const isMutating = (e: Pick<Endpoint, 'method'> & Partial<Pick<Endpoint, 'readsOnly' | 'mutates'>>) => !!e.mutates || (e.method !== 'GET' && !e.readsOnly);

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
