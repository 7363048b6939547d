import type { ReactNode } from 'react';
import type { RecordById } from '../lib/use-record-by-id';

/**
 * The body of a page that edits the record named by `?id=`: a bad id is told, a named record shows
 * its loading or error line until it is here, and then (or with no id: a new record) the children.
 * `noun` names the record in those lines (车辆 → 地址中的车辆编号无效。/ 车辆不存在).
 */
export function RecordByIdBody({ loaded, noun, children }: { loaded: RecordById<unknown>; noun: string; children: ReactNode }) {
  if (loaded.badId) return <p className="text-sm text-gray-700">{`地址中的${noun}编号无效。`}</p>;
  if (loaded.id && !loaded.record)
    return (
      <p role="status" className="text-sm text-gray-700">
        {loaded.error ? (loaded.error instanceof Error ? loaded.error.message : `${noun}不存在`) : '加载中…'}
      </p>
    );
  return <>{children}</>;
}
