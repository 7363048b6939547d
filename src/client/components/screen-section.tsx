import { type ReactNode, useId } from 'react';

/** A table screen's frame: a landmark named by a heading that screen readers hear (the breadcrumb shows it). */
export function ScreenSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="p-3 sm:p-4">
      <h2 id={id} className="sr-only">
        {title}
      </h2>
      {children}
    </section>
  );
}
