import { z } from 'zod';

/** Field builders with the Chinese messages the console shows beside the input. */

export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label}不能为空` })
    .trim()
    .min(1, { error: `${label}不能为空` })
    .max(max, { error: `${label}不能超过${max}个字符` });

export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label}必须是文本` })
    .trim()
    .max(max, { error: `${label}不能超过${max}个字符` });

/**
 * Whole numbers from JSON numbers or from plain decimal strings (query and path values) only:
 * `true`, `[4]`, `" 1"` and `"0b1"` are refused rather than coerced.
 */
export const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${label}必须是数字` })
      .int({ error: `${label}必须是整数` })
      .min(min, { error: min === 1 ? `${label}必须是正整数` : `${label}不能小于${min}` })
      .max(max, { error: max >= 2_000_000_000 ? `${label}超出范围` : `${label}不能大于${max}` }),
  );

export const id = (label = 'ID') => wholeNumber(label, 1, 2_147_483_647);

/** Query-string boolean: `true/false/1/0`. */
export const queryBool = (label: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${label}应为 true 或 false` })
    .transform((v) => v === 'true' || v === '1');

export const isoDateTime = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label}不是有效的时间（ISO 8601）` })
    .refine(
      (s) => {
        const year = new Date(s).getUTCFullYear();
        return year >= 1900 && year <= 9999;
      },
      { error: `${label}超出范围（1900–9999年）` },
    );

export const login = z
  .string({ error: '用户名不能为空' })
  .trim()
  .min(1, { error: '用户名不能为空' })
  .min(2, { error: '用户名至少2个字符' })
  .max(32, { error: '用户名不能超过32个字符' })
  .regex(/^[A-Za-z0-9_.@-]+$/, { error: '用户名只能包含字母、数字和 _ . @ -' });

/** New passwords: 8–64 characters with at least one letter and one digit. */
export const newPassword = z
  .string({ error: '新密码不能为空' })
  .min(1, { error: '新密码不能为空' })
  .min(8, { error: '密码至少8位' })
  .max(64, { error: '密码不能超过64位' })
  .refine((s) => /[A-Za-z]/.test(s) && /\d/.test(s), { error: '密码须同时包含字母和数字' });

export const phone = z.string().trim().regex(/^1\d{10}$/, { error: '手机号应为11位数字' });

/** Wire times are ISO 8601 strings. */
export const timestamp = z.string();

/**
 * An editable record's version as answered (issue 21): a save or status change sends back the one it
 * was made from, and the server refuses it when the record has moved on (`Msg.staleEdit`).
 */
export const rowVersion = z.number().int();

/**
 * The version a save or move starts from. Optional: a client written against the spec sends none and
 * is served as before (last write wins); the console always sends it (README decision on stale saves).
 */
export const fromVersion = wholeNumber('记录版本', 1, 2_147_483_647).optional();

/** What a stale refusal carries in `data`: the record as it is now, so a form can show the other's values. */
export interface StaleRefusal<R = unknown> {
  stale: true;
  current: R;
}
