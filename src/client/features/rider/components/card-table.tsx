/** A small table of the card view: one caption, one header row, cells as given. */
export function CardTable({ label, head, rows }: { label: string; head: string[]; rows: React.ReactNode[][] }) {
  return (
    // Focusable, so a keyboard can scroll it sideways on a phone. Named apart from the section it
    // sits in (亲情卡绑定 / 亲情卡绑定列表): two regions of one name cannot be told apart.
    <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label={`${label}列表`}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr className="bg-gray-50 text-gray-700">
            {head.map((h, i) => (
              <th key={i} className="whitespace-nowrap px-2 py-1.5 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-t border-gray-100">
              {r.map((cell, j) => (
                <td key={j} className="whitespace-nowrap px-2 py-1.5">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
