/** What a form hook built with `useContractForm(…, { stale })` gives a field's note. */
interface StaleForm<V> {
  theirs: Partial<V>;
  takeTheirs(field: keyof V & string): void;
  keepMine(field: keyof V & string): void;
}

/**
 * 「他人已改为：…」 under a field whose saved value another person changed while this form was open
 * (issue 21): the user's typed text stays in the field; 用他人的 takes the other's value, 保留我的
 * keeps the typed one. Either way the next save is made against the other's version.
 */
export function StaleNote<V extends Record<string, unknown>, K extends keyof V & string>({ form, field, show }: { form: StaleForm<V>; field: K; show?: (value: V[K]) => string }) {
  if (!(field in form.theirs)) return null;
  const value = form.theirs[field] as V[K];
  const text = show ? show(value) : String(value ?? '');
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2 rounded bg-amber-50 px-2 py-1 text-xs text-amber-800" data-stale-field={field}>
      <span>他人已改为：{text === '' ? '（空）' : text}</span>
      <button type="button" className="rounded px-1 underline focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40" aria-label={`用他人的：${text}`} onClick={() => form.takeTheirs(field)}>
        用他人的
      </button>
      <button type="button" className="rounded px-1 underline focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40" aria-label={`保留我的，不用：${text}`} onClick={() => form.keepMine(field)}>
        保留我的
      </button>
    </p>
  );
}
