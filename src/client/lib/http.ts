import axios, { type Options, type Response as AxiosResponse } from 'redaxios';
import * as auth from '../../shared/api/auth';
import { type Endpoint, buildPath } from '../../shared/api/endpoint';
import { DISTRICT_HEADER, LOGIN_RESULT_HEADER } from '../../shared/api/envelope';
import type { z } from 'zod';
import { ApiError, describe, SessionEndedError, TIMEOUT_MSG } from './errors';
import { CONSOLE_HEADER } from '../../shared/api/export-task';
import { CONSOLE_ID } from './console-id';

/** True when the endpoint declares no such part (the contract's default is an empty object). */
type Lacks<S> = S extends z.ZodObject<infer Shape> ? ([keyof Shape] extends [never] ? true : false) : false;

/**
 * One part of a call's input, typed from the endpoint's schema as the server parses it (`z.input`):
 * a part the endpoint lacks may not be sent, a part with required fields must be, and a renamed
 * field is a compile error at every caller. The loose `Endpoint` (a helper generic over any
 * endpoint) takes anything: its schema's input is `unknown`.
 */
type Part<K extends string, S extends z.ZodType> =
  unknown extends z.input<S>
    ? { [P in K]?: unknown }
    : Lacks<S> extends true
      ? { [P in K]?: never }
      : object extends z.input<S>
        ? { [P in K]?: z.input<S> }
        : { [P in K]: z.input<S> };

export type CallInput<E extends Endpoint = Endpoint> = Part<'params', E['params']> &
  Part<'query', E['query']> &
  Part<'body', E['body']> & {
    /** The area of this one call, when a form chose it (an admin on 全部区域 adding an agreement). */
    district?: string;
  };

/**
 * Where an endpoint reads its filters: the query, or the JSON body of a body form (`readByBody`),
 * which takes the very query schema of the spec call it stands for.
 */
export type FiltersOf<E extends Endpoint> = Lacks<E['body']> extends true ? z.input<E['query']> : z.input<E['body']>;

/** The input and options of a call: the input may be left out when the endpoint needs none. */
export type CallArgs<E extends Endpoint> = object extends CallInput<E> ? [input?: CallInput<E>, opts?: CallOptions] : [input: CallInput<E>, opts?: CallOptions];

/**
 * A number or boolean as the query string carries it, typed as its literal text (`1` → `'1'`), so a
 * query schema that takes `'0' | '1'` and transforms accepts it at compile time too.
 */
export const queryText = <V extends number | boolean>(v: V) => String(v) as `${V}`;

export interface CallOptions {
  /** No toast: the caller shows the error itself, or swallows it (the password dialog, spec §7). */
  silent?: boolean;
  /**
   * A 401 only means "log in again", and the caller handles it: the start-up check of a stored
   * token (the login page says why; the notice, whose reload meets the same token, would loop) and
   * the logout (the session is being ended anyway).
   */
  sessionCheck?: boolean;
}

export interface HttpHooks {
  baseURL?: string;
  getToken(): string | null;
  getDistrict(): string | null;
  /** Shows the one "expired / logged in elsewhere" dialog (spec §8); repeated calls are ignored. */
  onSessionEnded(reason: 'elsewhere' | 'expired', msg: string): void;
  toast(msg: string): void;
}

/** redaxios has no timeout: this fetch aborts after `ms`, and says so. */
function fetchWithTimeout(ms: number): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException(TIMEOUT_MSG, 'TimeoutError')), ms);
    try {
      return await fetch(input, { ...init, signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  };
}

const isResponse = (e: unknown): e is Response & { data: unknown } =>
  !!e && typeof e === 'object' && 'status' in e && 'headers' in e && typeof (e as Response).headers?.get === 'function';

const cleanQuery = (query: Record<string, unknown> = {}) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, String(v)]));

/** redaxios's own typing of `request` is a union no call satisfies; its call form is this. */
const send = axios as unknown as (config: Options) => Promise<AxiosResponse<unknown>>;

export type Http = ReturnType<typeof createHttp>;

/**
 * The one way the console talks to the server: bearer token, `_t`, `districtId`, the endpoint's
 * timeout, the envelope unwrapped and every failure mapped as spec §8 says.
 */
export function createHttp(hooks: HttpHooks) {
  async function call<E extends Endpoint>(endpoint: E, ...[given, options]: CallArgs<E>): Promise<z.output<E['response']>> {
    // Typed at the caller; here any endpoint's input is sent the same way.
    const input = (given ?? {}) as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown; district?: string };
    const opts = options ?? {};
    const headers: Record<string, string> = {};
    const token = hooks.getToken();
    if (token && endpoint.id !== auth.authenticate.id) headers.authorization = `Bearer ${token}`;
    const district = input.district ?? hooks.getDistrict();
    if (district) headers[DISTRICT_HEADER] = district;
    // Which tab asked: its own changes come back on its event stream marked as its own.
    headers[CONSOLE_HEADER] = CONSOLE_ID;
    let data: unknown;
    if (endpoint.bodyType === 'form' && input.body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      data = new URLSearchParams(input.body as Record<string, string>).toString();
    } else if (endpoint.bodyType === 'json') {
      data = input.body ?? {};
    }
    const report = (msg: string) => {
      if (!opts.silent) hooks.toast(msg);
    };

    let status: number;
    let body: unknown;
    let loginResult: string | null;
    try {
      const res = await send({
        url: (hooks.baseURL ?? '') + buildPath(endpoint.path, input.params),
        method: endpoint.method.toLowerCase() as 'get',
        headers,
        params: { ...cleanQuery(input.query), _t: String(Date.now()) },
        data,
        responseType: endpoint.file ? 'blob' : 'json',
        fetch: fetchWithTimeout(endpoint.timeoutMs),
      } as Options);
      // Files are streams, not envelopes (DESIGN §3), unless the server refused: then the envelope
      // came as JSON (with HTTP 200 for a business refusal) and must not be saved as the file.
      if (endpoint.file && !res.headers.get('content-type')?.includes('json')) return res.data as z.output<E['response']>;
      ({ status, data: body } = res);
      if (body instanceof Blob) body = JSON.parse(await body.text()) as unknown;
      loginResult = res.headers.get(LOGIN_RESULT_HEADER);
    } catch (err) {
      if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
        report(TIMEOUT_MSG);
        throw new ApiError(0, TIMEOUT_MSG, 0);
      }
      if (!isResponse(err)) {
        const msg = '请求出错：无法连接服务器';
        report(msg);
        throw new ApiError(0, msg, 0);
      }
      status = err.status;
      body = err.data;
      // A refused file request: its envelope came as a blob, like the file would have.
      if (body instanceof Blob) body = await body.text().then((text) => JSON.parse(text) as unknown, () => null);
      loginResult = err.headers.get(LOGIN_RESULT_HEADER);
    }
    const failure = describe({ status, body, loginResult });
    if (!failure) return (body as { data: z.output<E['response']> }).data;
    if (failure.kind === 'session-ended') {
      // A refused login is the login page's business, not a dialog's (spec §8).
      if (endpoint.id === auth.authenticate.id) throw new ApiError(401, (body as { msg?: string })?.msg ?? failure.msg, status);
      // Only the session the call was made in can end: a late answer of one already gone (cleared
      // by an earlier notice, or replaced by a new login in this tab), or of a call sent with no
      // session at all, is no news and must not announce over the session that is current now.
      if (!opts.sessionCheck && token && hooks.getToken() === token) hooks.onSessionEnded(failure.reason, failure.msg);
      throw new SessionEndedError(failure.reason, failure.msg, status);
    }
    report(failure.msg);
    throw new ApiError(failure.code, failure.msg, status, (body as { data?: unknown } | null)?.data ?? null);
  }
  return { call };
}
