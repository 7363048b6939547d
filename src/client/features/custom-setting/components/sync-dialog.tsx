import { useState } from 'react';
import type { z } from 'zod';
import { system } from '../../../../shared/api';
import { BASE_FIELDS, type BaseField, type CustomBaseRow, baseApplyTo } from '../../../../shared/api/custom-setting';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-controls';
import { Modal } from '../../../components/modal';
import { api } from '../../../lib/api-client';
import { useRevalidate } from '../../../lib/revalidate';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { hhmmOf } from '../time-of-day';

type Diff = z.output<typeof baseApplyTo.response>;

const shown = (field: BaseField, v: number | string | boolean) =>
  field === 'saleOpenTime' ? hhmmOf(Number(v)) : typeof v === 'boolean' ? (v ? '是' : '否') : String(v) === '' ? '（空）' : String(v).length > 30 ? `${String(v).slice(0, 30)}…` : String(v);

/**
 * ★ 跨区同步 (the super user's): the chosen fields of this district onto the chosen districts. Enter
 * runs the dry run, which lists each district's old → new; only then does 确认同步 (Ctrl+Enter) apply
 * all of them in one transaction. Changing a choice drops the dry run, so what is applied is always
 * what was shown.
 */
export function SyncDialog({ source, fields, onClose }: { source: CustomBaseRow; fields: readonly BaseField[]; onClose(): void }) {
  const districts = useApi(system.districtPage, { query: { page: 0, size: 1000 } });
  const revalidate = useRevalidate();
  const [picked, setPicked] = useState<ReadonlySet<BaseField>>(new Set());
  const [targets, setTargets] = useState<ReadonlySet<number>>(new Set());
  const [diff, setDiff] = useState<Diff | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const others = (districts.data?.content ?? []).filter((d) => d.id !== source.districtId);

  const toggle = <T,>(set: ReadonlySet<T>, v: T) => {
    const next = new Set(set);
    if (next.has(v)) next.delete(v);
    else next.add(v);
    return next;
  };
  const choose = (f: () => void) => {
    f();
    setDiff(null);
    setError('');
  };

  const call = async (dryRun: boolean) => {
    if (!picked.size) return setError('请选择要同步的字段');
    if (!targets.size) return setError('请选择目标区域');
    setBusy(true);
    setError('');
    try {
      const answer = await api.call(baseApplyTo, { body: { districtId: source.districtId, fields: [...picked], districtIds: [...targets], dryRun } }, { silent: true });
      if (dryRun) setDiff(answer);
      else {
        const changed = answer.districts.filter((d) => d.changes.length).length;
        toast.success(changed ? `已同步到${changed}个区域` : '各区域已与本区域一致，无需同步');
        void revalidate(baseApplyTo);
        onClose();
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const changedDistricts = diff?.districts.filter((d) => d.changes.length) ?? [];

  return (
    <Modal
      open
      title={`同步${source.districtName ?? ''}的设置到其他区域`}
      onClose={onClose}
      width="max-w-3xl"
      dirty={picked.size > 0 || targets.size > 0}
      onSubmit={() => void call(diff === null ? true : false)}
      footer={
        <>
          <Button onClick={onClose}>取消</Button>
          <Button onClick={() => void call(true)} disabled={busy}>
            试算
          </Button>
          <Button type="submit" variant="primary" hotkey="Ctrl+Enter" disabled={busy || diff === null || !changedDistricts.length}>
            {busy ? '处理中…' : '确认同步'}
          </Button>
        </>
      }
    >
      <FormError>{error}</FormError>
      <div className="grid gap-4 sm:grid-cols-2">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-gray-800">同步的字段</legend>
          {fields.map((f) => (
            <label key={f} className="flex items-center gap-2 py-0.5 text-sm text-gray-700">
              <input type="checkbox" className="size-4 accent-[var(--theme)]" checked={picked.has(f)} onChange={() => choose(() => setPicked(toggle(picked, f)))} />
              {BASE_FIELDS[f]}
              <span className="text-xs text-gray-500">（{shown(f, source[f])}）</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-gray-800">目标区域</legend>
          <label className="flex items-center gap-2 py-0.5 text-sm text-gray-700">
            <input
              type="checkbox"
              className="size-4 accent-[var(--theme)]"
              checked={others.length > 0 && targets.size === others.length}
              onChange={(e) => choose(() => setTargets(e.target.checked ? new Set(others.map((d) => d.id)) : new Set()))}
            />
            全选
          </label>
          <div className="grid grid-cols-2 gap-x-2">
            {others.map((d) => (
              <label key={d.id} className="flex items-center gap-2 py-0.5 text-sm text-gray-700">
                <input type="checkbox" className="size-4 accent-[var(--theme)]" checked={targets.has(d.id)} onChange={() => choose(() => setTargets(toggle(targets, d.id)))} />
                {d.name}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      <p className="mt-3 text-xs text-gray-500">回车试算，列出各区域的 原值 → 新值；确认后所有区域在同一事务中保存，每个区域记一条操作日志。</p>
      {diff && (
        <div className="mt-3 max-h-72 overflow-auto rounded border border-gray-200">
          <table aria-label="同步试算" className="w-full text-sm">
            <thead className="bg-gray-50 text-left text-gray-600">
              <tr>
                <th className="px-2 py-1 font-normal">区域</th>
                <th className="px-2 py-1 font-normal">变化</th>
              </tr>
            </thead>
            <tbody>
              {diff.districts.map((d) => (
                <tr key={d.districtId} className="border-t border-gray-100 align-top">
                  <td className="whitespace-nowrap px-2 py-1">{d.districtName}</td>
                  <td className="px-2 py-1">
                    {d.changes.length ? (
                      <ul>
                        {d.changes.map((c) => (
                          <li key={c.field}>
                            {c.label}：{shown(c.field, c.old)} → {shown(c.field, c.new)}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="text-gray-500">无变化</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Modal>
  );
}
