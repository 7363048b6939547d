import type { z } from 'zod';
import { ApiError } from '../lib/errors';

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

/**
 * Where a refused save's messages go. A 400 carries `data.errors: [{ field, msg }]`: each goes
 * under its field (the message alone is the fallback, `参数错误：field：msg`).
 * A business refusal naming a field's label (`用户名已存在`, `角色组不存在`) goes under that
 * field, the longest label winning (角色组 over 角色); anything else is for the whole form.
 */
export function errorsFromFailure(err: unknown, fields: readonly string[], labels: Readonly<Record<string, string>> = {}): FieldErrors {
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof ApiError && err.code === 400) {
    const listed = (err.data as { errors?: { field?: unknown; msg?: unknown }[] } | null)?.errors;
    const out: FieldErrors = {};
    for (const e of Array.isArray(listed) ? listed : []) {
      const field = typeof e.field === 'string' ? (e.field.split('.')[0] ?? '') : '';
      if (typeof e.msg === 'string' && fields.includes(field)) out[field] ??= e.msg;
    }
    if (Object.keys(out).length) return out;
    const rest = msg.replace(BAD_REQUEST_PREFIX, '');
    const m = /^([A-Za-z][\w.]*)：(.+)$/.exec(rest);
    const field = m?.[1]?.split('.')[0];
    if (m?.[2] && field && fields.includes(field)) return { [field]: m[2] };
    return { '': rest };
  }
  if (err instanceof ApiError && err.code === 0) {
    const named = Object.entries(labels)
      .filter(([field, label]) => fields.includes(field) && msg.includes(label))
      .sort((a, b) => b[1].length - a[1].length)[0];
    if (named) return { [named[0]]: msg };
  }
  return { '': msg };
}
