export function StatusBadge({ activated, locked }: { activated: boolean; locked: boolean }) {
  return (
    <span className="inline-flex gap-1">
      <span className={`rounded px-1.5 py-0.5 text-xs ${activated ? 'bg-green-50 text-green-700' : 'bg-gray-100 text-gray-600'}`}>{activated ? '启用' : '禁用'}</span>
      {locked && <span className="rounded bg-orange-50 px-1.5 py-0.5 text-xs text-orange-700" title="连续登录失败，暂时锁定">已锁定</span>}
    </span>
  );
}
