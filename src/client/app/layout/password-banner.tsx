import { daysAndHours } from '../../../shared/domain/time';

/** Red, closable: the password has not been changed for N days and H hours (spec §2). */
export function PasswordBanner({ seconds, onClose, onChange }: { seconds: number; onClose(): void; onChange(): void }) {
  const { days, hours } = daysAndHours(seconds);
  return (
    <div role="alert" className="flex items-start gap-3 border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-700">
      <p className="flex-1">
        您的密码已经 {days} 天 {hours} 小时未修改，为了账号安全，请
        <button type="button" onClick={onChange} className="underline focus-visible:outline-2 focus-visible:outline-red-500">
          立即修改密码
        </button>
        。
      </p>
      <button type="button" aria-label="关闭密码过期提示" onClick={onClose} className="text-lg leading-none opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-red-500">
        ×
      </button>
    </div>
  );
}
