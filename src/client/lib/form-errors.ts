import type { z } from 'zod';
import { ApiError } from './errors';
import { toast } from './toast';

/** Messages by field name; `''` holds those that belong to no field. */
export type FieldErrors = Record<string, string>;

/** The first message per top-level field of a failed parse. */
export function issuesToErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    out[field] ??= issue.message;
  }
  return out;
}

/**
 * Checks a form against the contract's own schema, the same one the server parses with, so the
 * console and the server cannot disagree on what is valid. Returns null when it passes.
 */
export function validate(schema: z.ZodType, value: unknown): FieldErrors | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : issuesToErrors(parsed.error);
}

const BAD_REQUEST_PREFIX = /^(请求出错：)?参数错误：/;

/** The `{ field, msg }` list a refusal carries: a 400's parse errors, or a business refusal's field. */
function listedErrors(err: ApiError, fields: readonly string[]): FieldErrors {
  const listed = (err.data as { errors?: { field?: unknown; msg?: unknown }[] } | null)?.errors;
  const out: FieldErrors = {};
  for (const e of Array.isArray(listed) ? listed : []) {
    const field = typeof e.field === 'string' ? (e.field.split('.')[0] ?? '') : '';
    if (typeof e.msg === 'string' && fields.includes(field)) out[field] ??= e.msg;
  }
  return out;
}

/**
 * Where a refused save's messages go: under the fields the server names in `data.errors`
 * (`[{ field, msg }]`, on a 400 and on a business refusal such as 用户名已存在 → `login`), never by
 * matching the message's text; a message naming no shown field is for the whole form.
 */
export function errorsFromFailure(err: unknown, fields: readonly string[]): FieldErrors {
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof ApiError && (err.code === 400 || err.code === 0)) {
    const out = listedErrors(err, fields);
    if (Object.keys(out).length) return out;
  }
  if (err instanceof ApiError && err.code === 400) {
    const rest = msg.replace(BAD_REQUEST_PREFIX, '');
    const m = /^([A-Za-z][\w.]*)：(.+)$/.exec(rest);
    const field = m?.[1]?.split('.')[0];
    if (m?.[2] && field && fields.includes(field)) return { [field]: m[2] };
    return { '': rest };
  }
  return { '': msg };
}

/**
 * A refused save, shown as spec §8 asks: the messages beside their fields (`errorsFromFailure`) and
 * the refusal in a toast as well; an ended session has its own notice already. Every form that
 * saves with `{ silent: true }` goes through here, so none shows its refusal inline only.
 */
export function refusalShown(err: unknown, fields: readonly string[]): FieldErrors {
  if (!(err instanceof ApiError && err.code === 401)) toast.error(err instanceof Error && err.message ? err.message : '保存失败');
  return errorsFromFailure(err, fields);
}
