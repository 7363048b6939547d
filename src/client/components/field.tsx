import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | null;
  /** Label column width in px (the password dialog uses 80, spec §5). */
  labelWidth?: number;
  required?: boolean;
  hint?: ReactNode;
  /** The input itself (a dialog moves focus to a field the server refused). */
  ref?: Ref<HTMLInputElement>;
  /** Shown under the input besides its error or hint: what another person saved meanwhile (`StaleNote`). */
  note?: ReactNode;
}

/** A labelled input whose error is tied to it for screen readers. */
export function Field({ label, error, labelWidth = 80, required, hint, note, id, className = '', ...input }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  return (
    <div className="mb-4 flex flex-col gap-1 sm:flex-row sm:items-start">
      <label htmlFor={inputId} className="shrink-0 pt-1.5 text-sm text-gray-600 sm:text-right sm:pr-3" style={{ width: labelWidth }}>
        {required && <span className="mr-0.5 text-red-600">*</span>}
        {label}
      </label>
      <div className="flex-1">
        <input
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`w-full rounded border px-3 py-1.5 text-sm outline-none disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-400 focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40 ${error ? 'border-red-400' : 'border-gray-300 focus:border-[var(--theme)]'} ${className}`}
          {...input}
        />
        {error ? (
          <p id={errorId} className="mt-1 text-xs text-red-600">
            {error}
          </p>
        ) : (
          hint && <p className="mt-1 text-xs text-gray-500">{hint}</p>
        )}
        {note}
      </div>
    </div>
  );
}
