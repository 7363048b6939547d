import { useState } from 'react';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api';
import { type FieldErrors, refusalShown, validate } from './form-errors';
import { toast } from './toast';
import { api } from './api-client';
import { useRevalidate } from './revalidate';
import type { CallArgs, CallInput } from './http';
import { rememberOwn } from './own-versions';
import { type StaleSaveOptions, sameValue, useStaleSave, withVersion } from './use-stale-save';

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
  /**
   * What the schema cannot know from the values alone (a password the server asks for only above
   * an amount): field messages, or null to go on. Runs before the schema's checks.
   */
  check?(values: V): FieldErrors | null;
  /**
   * An existing record's form (issue 21): the version it was opened from, sent with the save, and
   * how the record fills the form, to show the other's values when someone saved meanwhile.
   */
  stale?: StaleSaveOptions<V, z.output<E['response']>>;
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
  const stale = useStaleSave(opts.stale, opts.initial);

  /** Sets one field and clears its message (and the form's), as the user corrects it. */
  const set = <K extends keyof V & string>(field: K, value: V[K]) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => (prev[field] || prev[''] ? Object.fromEntries(Object.entries(prev).filter(([f]) => f !== field && f !== '')) : prev));
  };

  const submit = async (): Promise<boolean> => {
    if (busy) return false;
    // Any endpoint's parts: the endpoint's own schemas check them just below, before they are sent.
    const input = withVersion(opts.toInput(values) as CallInput, stale.version);
    // The same schemas the server parses with: what they refuse never leaves the console.
    const found =
      opts.check?.(values) ??
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
      stale.settled(saved);
      rememberOwn(endpoint, saved);
      toast.success(opts.success(saved, values));
      // What the save changed refetches by its resource tags (the endpoint's `writes`, else its
      // module), in the background: the dialog closes at once, and a module's reads may be many.
      void revalidate(endpoint);
      opts.onSaved?.(saved);
      return true;
    } catch (err) {
      // A stale save keeps the typed values; the other's saved ones show beside them (use-stale-save).
      const taken = stale.refused(err, values);
      if (taken && Object.keys(taken).length) setValues((prev) => ({ ...prev, ...taken }));
      // Spec §8: beside its field and in a toast.
      setErrors(refusalShown(err, fields));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const dirty = Object.keys(values).some((k) => !sameValue(values[k], initial[k]));
  /** Takes the other's saved value of a field (and its note goes). */
  const takeTheirs = <K extends keyof V & string>(field: K) => {
    if (field in stale.theirs) set(field, stale.theirs[field] as V[K]);
    stale.dismiss(field);
  };
  return { values, set, setValues, errors, busy, submit, dirty, theirs: stale.theirs, takeTheirs, keepMine: stale.dismiss };
}
