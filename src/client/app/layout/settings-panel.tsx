import { Dialog, DialogPanel, DialogTitle, Field, Label, Switch } from '@headlessui/react';
import { useState } from 'react';
import { DEFAULT_IDLE_MS, readToken, setIdleMs } from '../../lib/session-store';
import { THEME_PRESETS, type Settings, type UiSize, updateSettings, useSettings } from '../settings';

const SWITCHES: { key: keyof Omit<Settings, 'theme' | 'size'>; label: string }[] = [
  { key: 'tagsView', label: '开启标签页' },
  { key: 'fixedHeader', label: '固定头部' },
  { key: 'sidebarLogo', label: '侧边栏标志' },
];

// Never longer than the server's own idle limit (TOKEN_TTL_SECONDS, 30 min by default).
const IDLE_CHOICES = [5, 10, 15, 30];

/** The inactivity limit is configurable (spec §9): kept in local storage with the expiry. */
function IdleSetting() {
  const [minutes, setMinutes] = useState(() => Math.round((readToken()?.idleMs ?? DEFAULT_IDLE_MS) / 60_000));
  return (
    <label className="mb-3 flex items-center justify-between text-sm">
      <span>无操作自动退出</span>
      <select
        value={minutes}
        onChange={(e) => {
          const m = Number(e.target.value);
          setMinutes(m);
          setIdleMs(m * 60_000);
        }}
        className="rounded border border-gray-300 px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
      >
        {IDLE_CHOICES.map((m) => (
          <option key={m} value={m}>
            {m} 分钟
          </option>
        ))}
      </select>
    </label>
  );
}

/** Theme colour (eight presets), tags view, fixed header, sidebar logo; all off by default (spec §2). */
export function SettingsPanel({ open, onClose }: { open: boolean; onClose(): void }) {
  const s = useSettings();
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <DialogPanel className="fixed inset-y-0 right-0 w-72 max-w-full overflow-y-auto bg-white p-5 shadow-xl">
        <div className="mb-4 flex items-center justify-between">
          <DialogTitle className="text-base font-medium">布局设置</DialogTitle>
          <button type="button" aria-label="关闭" title="关闭 (Esc)" onClick={onClose} className="text-xl leading-none text-gray-500 focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
            ×
          </button>
        </div>
        <fieldset className="mb-5">
          <legend className="mb-2 text-sm text-gray-600">主题色</legend>
          <div className="flex flex-wrap gap-2">
            {THEME_PRESETS.map((c) => (
              <button
                key={c}
                type="button"
                aria-label={`主题色 ${c}`}
                aria-pressed={s.theme === c}
                onClick={() => updateSettings({ theme: c })}
                className={`size-7 rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gray-800 ${s.theme === c ? 'ring-2 ring-gray-800 ring-offset-2' : ''}`}
                style={{ background: c }}
              />
            ))}
          </div>
        </fieldset>
        <label className="mb-3 flex items-center justify-between text-sm">
          <span>界面尺寸</span>
          <select
            value={s.size}
            onChange={(e) => updateSettings({ size: e.target.value as UiSize })}
            className="rounded border border-gray-300 px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
          >
            <option value="medium">默认</option>
            <option value="small">较小</option>
            <option value="mini">紧凑</option>
          </select>
        </label>
        <IdleSetting />
        {SWITCHES.map(({ key, label }) => (
          // Headless UI names a switch through its Field's Label (its own aria-labelledby wins over ours).
          <Field key={key} className="flex items-center justify-between py-2 text-sm">
            <Label>{label}</Label>
            <Switch
              checked={s[key]}
              onChange={(v) => updateSettings({ [key]: v })}
              className="group relative inline-flex h-5 w-10 items-center rounded-full bg-gray-300 transition data-[checked]:bg-[var(--theme-strong)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--theme)]"
            >
              <span className="size-4 translate-x-0.5 rounded-full bg-white transition group-data-[checked]:translate-x-5" />
            </Switch>
          </Field>
        ))}
      </DialogPanel>
    </Dialog>
  );
}
