import { EXPIRY_WARN_DAYS } from '../../../../shared/api/custom-bus/fleet';
import { toneClass } from '../../../components/resource/status-badge';

/**
 * A date a car or a driver must be covered to (年检, 保险, 驾驶证) with the server's days left: 已过期
 * in red, N天后到期 in amber within 30 days, else the date alone. Words, not colour alone.
 */
export function ExpiryCell({ until, days }: { until: string; days: number }) {
  const badge = days < 0 ? { tone: 'red' as const, text: '已过期' } : days <= EXPIRY_WARN_DAYS ? { tone: 'amber' as const, text: days === 0 ? '今天到期' : `${days}天后到期` } : null;
  return (
    <span className="whitespace-nowrap tabular-nums">
      {until}
      {badge && <span className={`ml-1.5 rounded px-1.5 py-0.5 text-xs ${toneClass(badge.tone)}`}>{badge.text}</span>}
    </span>
  );
}
