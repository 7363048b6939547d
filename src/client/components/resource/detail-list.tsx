import type { ReactNode } from 'react';

export interface DetailItem {
  term: string;
  value: ReactNode;
}

type Items = readonly (DetailItem | false | null | undefined)[];

/**
 * A record's fields as term and value pairs. `record`: one pair a line, terms in a column (a detail
 * dialog or drawer); `summary`: pairs side by side, 2 to 4 a line (the head of a detail page).
 */
export function DetailList({ items, layout = 'record', termWidth = '6rem' }: { items: Items; layout?: 'record' | 'summary'; termWidth?: string }) {
  const shown = items.filter((i): i is DetailItem => !!i);
  if (layout === 'summary') {
    return (
      <dl className="grid flex-1 grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        {shown.map((i) => (
          <div key={i.term} className="flex items-center gap-2">
            <dt className="shrink-0 text-gray-600">{i.term}</dt>
            <dd className="min-w-0 text-gray-900">{i.value}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <dl className="grid gap-y-2 text-sm" style={{ gridTemplateColumns: `${termWidth} 1fr` }}>
      {shown.map((i) => (
        <div key={i.term} className="contents">
          <dt className="text-gray-600">{i.term}</dt>
          <dd className="min-w-0 text-gray-900">{i.value}</dd>
        </div>
      ))}
    </dl>
  );
}
