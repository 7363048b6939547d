/** Result 0 failure, 1 success (spec §3). */
export function ResultBadge({ result }: { result: 0 | 1 }) {
  return result === 1 ? (
    <span className="rounded bg-green-50 px-1.5 py-0.5 text-xs text-green-700">成功</span>
  ) : (
    <span className="rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-600">失败</span>
  );
}
