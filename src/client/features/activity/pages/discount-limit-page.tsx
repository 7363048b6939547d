import { useState } from 'react';
import { ACTIVITY_EDITOR, type DiscountLimit, LIMIT_DIMENSIONS, LIMIT_PERIODS, activityPage, discountLimitList, discountLimitSave } from '../../../../shared/api/activity';
import { fenToYuan, yuanToFen } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { CheckboxField, FormError, SelectField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { ScreenSection } from '../../../components/screen-section';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';

const capText = (l: DiscountLimit) => [l.maxTimes ? `${l.maxTimes} 次` : '', l.maxFen ? `${fenToYuan(l.maxFen)} 元` : ''].filter(Boolean).join('，');

/**
 * 优惠限制 (DiscountLimit): how often and how much a rider or a card may be discounted per day or
 * month, over every activity of the area or one of them. The settlement counts them exactly (a
 * locked counter per card or rider and period); 0 on a cap means none there.
 */
export function DiscountLimitPage() {
  const canEdit = useAllowed(ACTIVITY_EDITOR);
  const res = useApi(discountLimitList);
  const [editing, setEditing] = useState<DiscountLimit | 'new' | null>(null);
  const rows = res.data?.rows ?? [];
  const on = rows.filter((l) => l.enabled).length;
  return (
    <ScreenSection title="优惠限制">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <p aria-label="优惠限制统计" className="flex-1 text-sm text-gray-700">
          {res.data ? `共 ${rows.length} 条限制 · 启用 ${on} · 停用 ${rows.length - on}` : '加载中…'}
        </p>
        {canEdit && (
          <Button className="h-8" variant="primary" onClick={() => setEditing('new')}>
            新增限制
          </Button>
        )}
      </div>
      {res.error && (
        <p role="alert" className="text-sm text-red-700">
          {res.error instanceof Error ? res.error.message : '加载失败'}
        </p>
      )}
      <div className="overflow-x-auto rounded border border-gray-200 bg-white">
        <table className="w-full text-sm" aria-label="优惠限制">
          <thead className="bg-gray-50 text-left text-gray-600">
            <tr>
              <th className="px-3 py-2">适用活动</th>
              <th className="px-3 py-2">维度</th>
              <th className="px-3 py-2">周期</th>
              <th className="px-3 py-2">上限</th>
              <th className="px-3 py-2">状态</th>
              <th className="px-3 py-2">区域</th>
              <th className="px-3 py-2">更新时间</th>
              {canEdit && <th className="px-3 py-2">操作</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((l) => (
              <tr key={l.id} className="border-t border-gray-100">
                <td className="px-3 py-2">{l.activityName ?? '全部活动'}</td>
                <td className="px-3 py-2">{LIMIT_DIMENSIONS[l.dimension]}</td>
                <td className="px-3 py-2">{LIMIT_PERIODS[l.period]}</td>
                <td className="px-3 py-2 tabular-nums">最多 {capText(l)}</td>
                <td className={`px-3 py-2 ${l.enabled ? 'text-green-700' : 'text-gray-500'}`}>{l.enabled ? '启用' : '停用'}</td>
                <td className="px-3 py-2">{l.districtName ?? '全市'}</td>
                <td className="px-3 py-2 tabular-nums">{formatDateTime(l.updatedDate)}</td>
                {canEdit && (
                  <td className="px-3 py-2">
                    <Button className="h-7" onClick={() => setEditing(l)} aria-label={`编辑限制：${l.activityName ?? '全部活动'}${LIMIT_DIMENSIONS[l.dimension]}${LIMIT_PERIODS[l.period]}`}>
                      编辑
                    </Button>
                  </td>
                )}
              </tr>
            ))}
            {res.data && !rows.length && (
              <tr>
                <td colSpan={8} className="px-3 py-6 text-center text-gray-500">
                  暂无优惠限制
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {editing && <LimitDialog limit={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </ScreenSection>
  );
}

const valuesOf = (l: DiscountLimit) => ({
  scope: l.activityId ? 'activity' : 'all',
  activityId: l.activityId ? String(l.activityId) : '',
  dimension: l.dimension as string,
  period: l.period as string,
  maxTimes: String(l.maxTimes),
  maxFen: fenToYuan(l.maxFen),
  enabled: l.enabled,
});

function LimitDialog({ limit, onClose }: { limit: DiscountLimit | null; onClose(): void }) {
  const noArea = useNoAreaChosen();
  // The activities a limit may name: the area's that have not ended.
  const acts = useApi(activityPage, { query: { page: 0, size: 500 } });
  const options = (acts.data?.content ?? []).filter((a) => a.status !== 3 || a.id === limit?.activityId).map((a) => ({ value: String(a.id), label: a.name }));
  const [fenError, setFenError] = useState<string | null>(null);
  const form = useContractForm(discountLimitSave, {
    initial: limit ? valuesOf(limit) : { scope: 'all', activityId: '', dimension: 'card', period: 'day', maxTimes: '0', maxFen: '0', enabled: true },
    toInput: (v) => ({
      body: {
        ...(limit ? { id: limit.id } : {}),
        scope: v.scope as 'all' | 'activity',
        activityId: v.scope === 'activity' && v.activityId ? Number(v.activityId) : null,
        dimension: v.dimension as 'rider' | 'card',
        period: v.period as 'day' | 'month',
        maxTimes: /^\d+$/.test(v.maxTimes.trim()) ? Number(v.maxTimes.trim()) : Number.NaN,
        maxFen: yuanToFen(v.maxFen || '0') ?? Number.NaN,
        enabled: v.enabled,
      },
    }),
    success: () => `${limit ? '已保存' : '已新增'}优惠限制`,
    onSaved: onClose,
    stale: { version: limit?.rowVersion, valuesOf },
  });
  const { values: v, errors, set } = form;
  const submit = () => {
    const bad = v.maxFen.trim() !== '' && yuanToFen(v.maxFen) === null;
    setFenError(bad ? '请输入金额（元），如 20.00，最多两位小数' : null);
    if (!bad) void form.submit();
  };
  return (
    <Modal open title={limit ? '编辑优惠限制' : '新增优惠限制'} onClose={onClose} dirty={form.dirty} onSubmit={submit} footer={<ModalActions onCancel={onClose} busy={form.busy} disabled={!limit && noArea} />}>
      <FormError>{errors['']}</FormError>
      {!limit && noArea && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：新的限制属于该区域。</p>}
      <SelectField label="适用范围" value={v.scope} onChange={(e) => set('scope', e.target.value)} options={[{ value: 'all', label: '本区域全部活动' }, { value: 'activity', label: '指定活动' }]} error={errors.scope} />
      {v.scope === 'activity' && <SelectField label="活动" required value={v.activityId} placeholder="请选择活动" onChange={(e) => set('activityId', e.target.value)} options={options} error={errors.activityId} />}
      <SelectField label="维度" value={v.dimension} onChange={(e) => set('dimension', e.target.value)} options={Object.entries(LIMIT_DIMENSIONS).map(([value, label]) => ({ value, label }))} error={errors.dimension} />
      <SelectField label="周期" value={v.period} onChange={(e) => set('period', e.target.value)} options={Object.entries(LIMIT_PERIODS).map(([value, label]) => ({ value, label }))} error={errors.period} />
      <Field label="次数上限" inputMode="numeric" hint="0 为不限" value={v.maxTimes} onChange={(e) => set('maxTimes', e.target.value)} error={errors.maxTimes} />
      <Field label="金额上限（元）" inputMode="decimal" hint="0 为不限；两项至少填一项" value={v.maxFen} onChange={(e) => (set('maxFen', e.target.value), setFenError(null))} error={fenError ?? errors.maxFen} />
      <CheckboxField label="启用" checked={v.enabled} onChange={(c) => set('enabled', c)} />
    </Modal>
  );
}
