import { useState } from 'react';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api';
import { type FieldErrors, errorsFromFailure, validate } from './form-errors';
import { toast } from './toast';
import { api } from './api-client';
import { useRevalidate } from './revalidate';
import { ApiError } from './errors';
import type { CallArgs, CallInput } from './http';

type Widen<V> = V extends number ? number : V;
type NumbersWidened<T> = T extends object ? { [K in keyof T]: Widen<T[K]> } : T;

/**
 * The call's input as a form builds it from its text: field names, required fields and value types
 * are the endpoint's, except that a number parsed from a field or select (`Number('1')`) is any
 * number: which ones the contract takes (`0 | 1`) is checked by its schema before anything is sent.
 */
export type FormInput<E extends Endpoint> = { [P in keyof CallInput<E>]: P extends 'body' | 'query' ? NumbersWidened<CallInput<E>[P]> : CallInput<E>[P] };

export interface ContractFormOptions<E extends Endpoint, V extends Record<string, unknown>> {
  initial: V;
  /** The call's input from the form's values (the body, usually). */
  toInput(values: V): FormInput<E>;
  /** The success toast, from what the server answered. */
  success(saved: z.output<E['response']>, values: V): string;
  onSaved?(saved: z.output<E['response']>): void;
  /** Fields that show messages, when they differ from the values' keys (a value sent as `itemIds`). */
  errorFields?: readonly string[];
}

/**
 * A form over one contract endpoint: values, validation with the endpoint's own body schema (the one
 * the server parses with), busy, field errors from the server's `data.errors`, a success toast and
 * revalidation of what the save changed. What every form dialog and settings page needs, once.
 */
export function useContractForm<E extends Endpoint, V extends Record<string, unknown>>(endpoint: E, opts: ContractFormOptions<E, V>) {
  const revalidate = useRevalidate();
  const [values, setValues] = useState<V>(opts.initial);
  // The first values, to tell whether closing would throw typed text away.
  const [initial] = useState<V>(opts.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const fields = opts.errorFields ?? Object.keys(opts.initial);

  /** Sets one field and clears its message (and the form's), as the user corrects it. */
  const set = <K extends keyof V & string>(field: K, value: V[K]) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => (prev[field] || prev[''] ? Object.fromEntries(Object.entries(prev).filter(([f]) => f !== field && f !== '')) : prev));
  };

  const submit = async (): Promise<boolean> => {
    if (busy) return false;
    // Any endpoint's parts: the endpoint's own schemas check them just below, before they are sent.
    const input = opts.toInput(values) as CallInput;
    // The same schemas the server parses with: what they refuse never leaves the console.
    const found =
      (input.query !== undefined ? validate(endpoint.query, input.query) : null) ??
      (endpoint.bodyType !== 'none' ? validate(endpoint.body, input.body ?? {}) : null);
    if (found) {
      setErrors(found);
      return false;
    }
    setBusy(true);
    setErrors({});
    try {
      const saved = await api.call(endpoint, ...([input, { silent: true }] as CallArgs<E>));
      toast.success(opts.success(saved, values));
      // What the save changed refetches by its resource tags (the endpoint's `writes`, else its
      // module), in the background: the dialog closes at once, and a module's reads may be many.
      void revalidate(endpoint);
      opts.onSaved?.(saved);
      return true;
    } catch (err) {
      setErrors(errorsFromFailure(err, fields));
      // Spec §8: a refused call is also told in a toast, besides the message beside its field; an
      // ended session has its own notice already.
      if (!(err instanceof ApiError && err.code === 401)) toast.error(err instanceof Error && err.message ? err.message : '保存失败');
      return false;
    } finally {
      setBusy(false);
    }
  };

  const dirty = Object.keys(values).some((k) => !sameValue(values[k], initial[k]));
  return { values, set, setValues, errors, busy, submit, dirty };
}

/** Form values are strings, booleans, arrays and Sets (a permission tree's picks): compared by content. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((x) => b.has(x));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return false;
}
