import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { type BaseSetting, system } from '../../../../shared/api';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { ScreenSection } from '../../../components/screen-section';
import { StaleNote } from '../../../components/stale-note';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';

/**
 * 基础设置: the QR code the sidebar shows and the city centre the map screens start from. Both are
 * city-wide: everyone with the menu sees them, only the super user saves (the server says the same).
 */
export function BaseSettingPage() {
  const qr = useApi(system.qrCode, {}, undefined, { silent: true });
  const centre = useApi(system.cityLocation, {}, undefined, { silent: true });
  const loaded = qr.data !== undefined && (centre.data !== undefined || centre.error !== undefined);
  return (
    <ScreenSection title="基础设置">
      <div className="max-w-3xl rounded bg-white p-4 shadow-sm sm:p-6">
        {loaded ? (
          <BaseSettingForm current={{ qrCode: qr.data ?? null, lat: centre.data?.lat ?? Number.NaN, lon: centre.data?.lon ?? Number.NaN, rowVersion: centre.data?.rowVersion }} />
        ) : (
          <p role="status" className="text-sm text-gray-500">
            {qr.error ? `加载失败：${qr.error instanceof Error ? qr.error.message : String(qr.error)}` : '加载中…'}
          </p>
        )}
      </div>
    </ScreenSection>
  );
}

/** Numbers typed as text: empty or malformed stays NaN, which the contract's schema refuses in Chinese. */
const toNumber = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
const show = (n: number) => (Number.isFinite(n) ? String(n) : '');

type Shown = Omit<BaseSetting, 'rowVersion'> & { rowVersion: number | undefined };
const valuesOf = (s: Pick<BaseSetting, 'qrCode' | 'lat' | 'lon'>) => ({ qrCode: s.qrCode ?? '', lat: show(s.lat), lon: show(s.lon) });

function BaseSettingForm({ current }: { current: Shown }) {
  const canSave = useAllowed(system.configSave.permission);
  const form = useContractForm(system.configSave, {
    initial: valuesOf(current),
    toInput: (v) => ({ body: { qrCode: v.qrCode.trim() ? v.qrCode.trim() : null, lat: toNumber(v.lat), lon: toNumber(v.lon) } }),
    success: () => '已保存基础设置',
    // Saved from the version loaded (issue 21); another's save meanwhile shows beside the typed text.
    stale: { version: current.rowVersion, valuesOf },
    // The sidebar's QR code and the stored city centre read these.
  });

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    void form.submit();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
  };

  const readFile = (file: File | undefined) => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && form.set('qrCode', reader.result);
    reader.readAsDataURL(file);
  };

  const preview = form.values.qrCode.trim();
  // The page loads images only from the sites its policy named when it was opened (the saved QR
  // code's among them): a new site's image shows once saved and the page reloaded.
  const [unshown, setUnshown] = useState<string | null>(null);
  return (
    <form onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label="基础设置">
      <FormError>{form.errors['']}</FormError>
      {/* Read-only rather than disabled for those who may not save: still focusable and readable. */}
      <fieldset disabled={form.busy} className="contents">
        <Field
          label="侧边栏二维码"
          labelWidth={110}
          value={preview.startsWith('data:') ? '（已选择本地图片）' : form.values.qrCode}
          onChange={(e) => form.set('qrCode', e.target.value)}
          readOnly={!canSave || preview.startsWith('data:')}
          placeholder="https://… 图片地址，或选择本地图片"
          error={form.errors.qrCode}
          note={<StaleNote form={form} field="qrCode" show={(v) => (v.startsWith('data:') ? '（本地图片）' : v)} />}
          hint="显示在侧边栏底部；留空则不显示"
        />
        <div className="mb-4 flex flex-wrap items-center gap-3 sm:pl-[110px]">
          {canSave && (
            <label className="cursor-pointer rounded border border-gray-300 px-3 py-1 text-sm text-gray-700 focus-within:ring-2 focus-within:ring-[var(--theme)]/40 hover:border-[var(--theme)]">
              选择本地图片
              <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="sr-only" onChange={(e) => readFile(e.target.files?.[0])} />
            </label>
          )}
          {canSave && preview && (
            <Button variant="text" onClick={() => form.set('qrCode', '')}>
              清除二维码
            </Button>
          )}
          {preview && <img src={preview} alt="二维码预览" onError={() => setUnshown(preview)} className="h-20 w-20 rounded border border-gray-200 object-contain" />}
          {preview && unshown === preview && (
            <span role="status" className="text-sm text-orange-700">
              无法预览：请检查地址；其他网站的图片在保存并刷新页面后显示
            </span>
          )}
        </div>
        <Field label="城市中心纬度" labelWidth={110} inputMode="decimal" required readOnly={!canSave} value={form.values.lat} onChange={(e) => form.set('lat', e.target.value)} error={form.errors.lat} hint="GCJ-02 坐标，例如 31.2304" note={<StaleNote form={form} field="lat" />} />
        <Field label="城市中心经度" labelWidth={110} inputMode="decimal" required readOnly={!canSave} value={form.values.lon} onChange={(e) => form.set('lon', e.target.value)} error={form.errors.lon} hint="例如 121.4737" note={<StaleNote form={form} field="lon" />} />
      </fieldset>
      {canSave ? (
        <div className="flex justify-end gap-2">
          <Button type="submit" variant="primary" hotkey="Ctrl+Enter" disabled={form.busy}>
            {form.busy ? '保存中…' : '保存'}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-gray-500">只有超级管理员可以修改基础设置。</p>
      )}
    </form>
  );
}
