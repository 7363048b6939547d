import type { ComponentPropsWithRef } from 'react';

type Variant = 'primary' | 'default' | 'danger' | 'text';

const VARIANT: Record<Variant, string> = {
  primary: 'bg-[var(--theme-strong)] text-white border-[var(--theme)] hover:opacity-90',
  default: 'bg-white text-gray-700 border-gray-300 hover:border-[var(--theme)] hover:text-[var(--theme-strong)]',
  danger: 'bg-red-600 text-white border-red-600 hover:bg-red-700',
  text: 'border-transparent bg-transparent text-[var(--theme-strong)] hover:underline px-1',
};

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: Variant;
  /** Shown as a hint beside the label and in the tooltip, e.g. "Ctrl+Enter". */
  hotkey?: string;
}

export function Button({ variant = 'default', hotkey, className = '', children, title, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      title={hotkey ? `${title ?? ''}${title ? ' ' : ''}(${hotkey})` : title}
      className={`inline-flex items-center gap-1 rounded border px-3 py-1.5 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--theme)] disabled:cursor-not-allowed disabled:opacity-50 ${VARIANT[variant]} ${className}`}
      {...rest}
    >
      {children}
      {hotkey && <kbd className="ml-1 hidden rounded bg-black/10 px-1 text-[10px] font-normal sm:inline">{hotkey}</kbd>}
    </button>
  );
}
