import { type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

/**
 * Select, text area and check box laid out like `Field` (label column, error tied to the control),
 * so a dialog mixing them lines up.
 */
interface Labelled {
  label: string;
  error?: string | null;
  labelWidth?: number;
  required?: boolean;
  hint?: ReactNode;
  /** Shown under the control besides its error or hint: what another person saved meanwhile (`StaleNote`). */
  note?: ReactNode;
}

const controlClass = (error?: string | null) =>
  `w-full rounded border px-3 py-1.5 text-sm outline-none focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40 disabled:bg-gray-50 disabled:text-gray-500 ${error ? 'border-red-400' : 'border-gray-300 focus:border-[var(--theme)]'}`;

function Row({ id, label, error, labelWidth = 80, required, hint, note, children }: Labelled & { id: string; children: ReactNode }) {
  return (
    <div className="mb-4 flex flex-col gap-1 sm:flex-row sm:items-start">
      <label htmlFor={id} className="shrink-0 pt-1.5 text-sm text-gray-600 sm:pr-3 sm:text-right" style={{ width: labelWidth }}>
        {required && <span className="mr-0.5 text-red-600">*</span>}
        {label}
      </label>
      <div className="min-w-0 flex-1">
        {children}
        {error ? (
          <p id={`${id}-error`} className="mt-1 text-xs text-red-600">
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

export interface SelectFieldProps extends Labelled, Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> {
  options: readonly { value: string; label: string }[];
  /** The first, empty option, e.g. "请选择角色组". */
  placeholder?: string;
}

export function SelectField({ label, error, labelWidth, required, hint, note, options, placeholder, id, className = '', ...select }: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <Row id={selectId} label={label} error={error} labelWidth={labelWidth} required={required} hint={hint} note={note}>
      <select
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${selectId}-error` : undefined}
        className={`${controlClass(error)} bg-white ${className}`}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Row>
  );
}

export interface TextAreaFieldProps extends Labelled, TextareaHTMLAttributes<HTMLTextAreaElement> {}

export function TextAreaField({ label, error, labelWidth, required, hint, note, id, className = '', ...area }: TextAreaFieldProps) {
  const autoId = useId();
  const areaId = id ?? autoId;
  return (
    <Row id={areaId} label={label} error={error} labelWidth={labelWidth} required={required} hint={hint} note={note}>
      <textarea
        id={areaId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${areaId}-error` : undefined}
        className={`${controlClass(error)} ${className}`}
        {...area}
      />
    </Row>
  );
}

export function CheckboxField({
  label,
  checked,
  onChange,
  labelWidth = 80,
  hint,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  labelWidth?: number;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="mb-4 flex flex-col gap-1 sm:flex-row sm:items-start">
      <span className="hidden shrink-0 sm:block" style={{ width: labelWidth }} />
      <div className="flex-1">
        <label htmlFor={id} className="inline-flex items-center gap-2 text-sm text-gray-700">
          <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} className="size-4 accent-[var(--theme)]" />
          {label}
        </label>
        {hint && <p className="mt-1 text-xs text-gray-500">{hint}</p>}
      </div>
    </div>
  );
}

/** A message for the whole form (a refusal that belongs to no field). */
export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="mb-4 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      {children}
    </p>
  );
}
