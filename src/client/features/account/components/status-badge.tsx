import { ACCOUNT_STATE } from '../../../../shared/api/account';
import { FlowBadge, toneClass } from '../../../components/resource/status-badge';

/** 启用/禁用 as the flow declares it, and 已锁定 while failed logins hold the account. */
export function StatusBadge({ activated, locked }: { activated: boolean; locked: boolean }) {
  return (
    <span className="inline-flex gap-1">
      <FlowBadge flow={ACCOUNT_STATE} code={activated} />
      {locked && (
        <span className={`rounded px-1.5 py-0.5 text-xs ${toneClass('amber')}`} title="连续登录失败，暂时锁定">
          已锁定
        </span>
      )}
    </span>
  );
}
