import { useState } from 'react';
import type { z } from 'zod';
import { ACTIVITY_BUDGETER, ACTIVITY_EDITOR, ACTIVITY_NAME_MAX, ACTIVITY_PAY_CHANNELS, ACTIVITY_TYPES, type Activity, type ActivityRule, activitySave, activitySimulate } from '../../../../shared/api/activity';
import { CARD_CATEGORIES } from '../../../../shared/api/card';
import { fenToYuan, yuanToFen } from '../../../../shared/domain/money';
import { shanghaiDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { CheckboxField, FormError, SelectField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useContractForm } from '../../../lib/use-contract-form';
import { SimulateDialog } from './simulate-view';

type Tier = { from: string; zhe: string };
type Channel = (typeof ACTIVITY_PAY_CHANNELS)[number];
type Values = {
  name: string;
  type: string;
  zhe: string;
  tiers: Tier[];
  windowMin: string;
  maxYuan: string;
  perDay: string;
  rebatePct: string;
  lines: string;
  cards: number[];
  channels: Channel[];
  startAt: string;
  endAt: string;
  budget: string;
  priority: string;
  stackable: boolean;
  enabled: boolean;
};

/** 8.5 (折) ↔ 850 (‰ of the fare paid); yuan ↔ fen; a datetime-local value ↔ an instant in Shanghai. */
const zheToRate = (t: string) => (/^\d+(\.\d{1,2})?$/.test(t.trim()) ? Math.round(Number(t.trim()) * 100) : Number.NaN);
const rateToZhe = (r: number | undefined) => (r === undefined ? '' : String(r / 100));
const fen = (t: string) => yuanToFen(t) ?? Number.NaN;
const int = (t: string) => (/^\d+$/.test(t.trim()) ? Number(t.trim()) : Number.NaN);
const toLocal = (iso: string) => shanghaiDateTime(iso).slice(0, 16).replace(' ', 'T');
const fromLocal = (v: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? `${v}:00+08:00` : v);

const valuesOf = (a: Activity): Values => ({
  name: a.name,
  type: String(a.type),
  zhe: rateToZhe(a.rule.rate),
  tiers: (a.rule.tiers ?? []).map((x) => ({ from: fenToYuan(x.fromFen), zhe: rateToZhe(x.rate) })),
  windowMin: a.rule.windowMin === undefined ? '90' : String(a.rule.windowMin),
  maxYuan: a.rule.maxFen === undefined ? '2.00' : fenToYuan(a.rule.maxFen),
  perDay: String(a.rule.perDay ?? 0),
  rebatePct: a.rule.rebateRate === undefined ? '' : String(a.rule.rebateRate / 10),
  lines: a.scope.lineCodes.join(' '),
  cards: a.scope.cardCategories,
  channels: a.scope.payChannels.filter((c): c is Channel => (ACTIVITY_PAY_CHANNELS as readonly string[]).includes(c)),
  startAt: toLocal(a.startAt),
  endAt: toLocal(a.endAt),
  budget: fenToYuan(a.budgetFen),
  priority: String(a.priority),
  stackable: a.stackable,
  enabled: a.enabled,
});

function blank(): Values {
  const start = new Date(Date.now() + 86_400_000);
  const day = toLocal(start.toISOString()).slice(0, 10);
  const end = toLocal(new Date(start.getTime() + 30 * 86_400_000).toISOString()).slice(0, 10);
  return { name: '', type: '1', zhe: '8', tiers: [{ from: '50', zhe: '9' }, { from: '100', zhe: '7' }], windowMin: '90', maxYuan: '2.00', perDay: '0', rebatePct: '50', lines: '', cards: [], channels: [], startAt: `${day}T00:00`, endAt: `${end}T00:00`, budget: '', priority: '0', stackable: false, enabled: true };
}

/** The rule of the chosen type from the form's fields (the other types' fields are not sent). */
function ruleOf(v: Values): ActivityRule {
  if (v.type === '1') return { rate: zheToRate(v.zhe) };
  if (v.type === '2') return { tiers: v.tiers.map((x) => ({ fromFen: fen(x.from), rate: zheToRate(x.zhe) })) };
  if (v.type === '3') return { windowMin: int(v.windowMin), maxFen: fen(v.maxYuan), perDay: int(v.perDay || '0') };
  return { rebateRate: Math.round(Number(v.rebatePct) * 10) };
}

/** The draft as the save and 预演 take it. */
export function draftOf(v: Values) {
  return {
    name: v.name,
    type: Number(v.type),
    rule: ruleOf(v),
    scope: { lineCodes: v.lines.split(/[\s,，、]+/).filter(Boolean), cardCategories: v.cards, payChannels: v.channels },
    startAt: fromLocal(v.startAt),
    endAt: fromLocal(v.endAt),
    budgetFen: fen(v.budget),
    priority: int(v.priority || '0'),
    stackable: v.stackable,
  };
}

type SimulateBody = z.input<typeof activitySimulate.body>;
const simulateBody = activitySimulate.body;

/**
 * 新增活动 / 编辑活动 with the rule editor of each type: discounts typed in 折 (8.5), money in yuan,
 * stored as ‰ and fen. 预演 runs the draft over the last 30 days before saving. A running one shows
 * its rule read-only (the server refuses the change: 请先暂停); the budget field is for 活动预算 only.
 */
export function ActivityFormDialog({ activity, onClose }: { activity: Activity | null; onClose(): void }) {
  const canEdit = useAllowed(ACTIVITY_EDITOR);
  const canBudget = useAllowed(ACTIVITY_BUDGETER);
  const noArea = useNoAreaChosen();
  const [simulating, setSimulating] = useState<SimulateBody | null>(null);
  const [draftError, setDraftError] = useState<string | null>(null);
  const form = useContractForm(activitySave, {
    initial: activity ? valuesOf(activity) : blank(),
    toInput: (v) => ({ body: { ...(activity ? { id: activity.id } : { enabled: v.enabled }), ...draftOf(v) } }),
    errorFields: ['name', 'type', 'rule', 'scope', 'startAt', 'endAt', 'budgetFen', 'priority', 'stackable', 'districtId'],
    success: (saved) => `${activity ? '已保存' : '已新增'}活动「${saved.name}」`,
    onSaved: onClose,
    stale: { version: activity?.rowVersion, valuesOf },
  });
  const { values: v, errors, set } = form;
  // A city-wide activity (district null) is the super user's, changed only across all areas.
  const cityOnly = !!activity && activity.districtId === null && !noArea;
  const running = activity?.status === 1 || activity?.status === 4;
  const ended = activity?.status === 3;
  const ruleLocked = running || ended || !canEdit;
  const text = (k: 'name' | 'zhe' | 'windowMin' | 'maxYuan' | 'perDay' | 'rebatePct' | 'lines' | 'startAt' | 'endAt' | 'budget' | 'priority') => ({ value: v[k], onChange: (e: { target: { value: string } }) => set(k, e.target.value) });
  const setTier = (i: number, patch: Partial<Tier>) => set('tiers', v.tiers.map((x, k) => (k === i ? { ...x, ...patch } : x)));
  const toggle = <T,>(list: T[], x: T) => (list.includes(x) ? list.filter((y) => y !== x) : [...list, x]);
  const rehearse = () => {
    const body = { ...(activity ? { id: activity.id } : {}), ...draftOf(v) };
    const parsed = simulateBody.safeParse(body);
    if (!parsed.success) {
      setDraftError(parsed.error.issues[0]?.message ?? '请先填完整活动规则');
      return;
    }
    setDraftError(null);
    setSimulating(body);
  };
  const title = activity ? `编辑活动 · ${activity.name}` : '新增活动';
  return (
    <>
      <Modal open title={title} width="max-w-2xl" onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} disabled={(!canEdit && !canBudget) || (!activity && noArea) || cityOnly} />}>
        <FormError>{errors[''] ?? draftError}</FormError>
        {!activity && noArea && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：新的活动属于该区域。</p>}
        {running && <p className="mb-4 rounded bg-amber-50 px-3 py-2 text-sm text-amber-800">进行中的活动不能修改优惠规则、范围、开始时间、优先级和叠加，请先暂停；名称、结束时间和预算可以修改。</p>}
        {cityOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">全市活动只能由超级管理员在「全部区域」下修改。</p>}
        {ended && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">活动已结束，不能修改，请复制为新活动。</p>}
        <fieldset disabled={form.busy} className="contents">
          <Field labelWidth={112} label="活动名称" required autoFocus readOnly={!canEdit || ended} maxLength={ACTIVITY_NAME_MAX} error={errors.name} {...text('name')} />
          <SelectField labelWidth={112} label="活动类型" required disabled={ruleLocked} value={v.type} onChange={(e) => set('type', e.target.value)} options={Object.entries(ACTIVITY_TYPES).map(([value, label]) => ({ value, label }))} error={errors.type} />
          <div role="group" aria-label="优惠规则" className="mb-2">
            {v.type === '1' && <Field labelWidth={112} label="折扣（折）" required readOnly={ruleLocked} inputMode="decimal" hint="0.1–9.9，如 8 即8折" error={errors.rule} {...text('zhe')} />}
            {v.type === '2' && (
              <div className="mb-4">
                <p className="mb-2 text-sm text-gray-700">阶梯（当月累计消费达到金额后享受的折扣，金额递增、折扣逐级加大）</p>
                {v.tiers.map((x, i) => (
                  <div key={i} className="flex items-start gap-2">
                    <Field labelWidth={112} label={`第${i + 1}级 满（元）`} readOnly={ruleLocked} inputMode="decimal" value={x.from} onChange={(e) => setTier(i, { from: e.target.value })} />
                    <Field labelWidth={48} label="折扣" readOnly={ruleLocked} inputMode="decimal" value={x.zhe} onChange={(e) => setTier(i, { zhe: e.target.value })} />
                    {!ruleLocked && v.tiers.length > 1 && (
                      <Button className="h-8" onClick={() => set('tiers', v.tiers.filter((_, k) => k !== i))}>
                        删除第{i + 1}级
                      </Button>
                    )}
                  </div>
                ))}
                {!ruleLocked && v.tiers.length < 10 && (
                  <Button className="h-8" onClick={() => set('tiers', [...v.tiers, { from: '', zhe: '' }])}>
                    添加阶梯
                  </Button>
                )}
                {errors.rule && <p className="mt-1 text-sm text-red-700">{errors.rule}</p>}
              </div>
            )}
            {v.type === '3' && (
              <>
                <Field labelWidth={112} label="换乘时间窗（分钟）" required readOnly={ruleLocked} inputMode="numeric" hint="1–180：上一次乘车后多少分钟内换乘其他线路" error={errors.rule} {...text('windowMin')} />
                <Field labelWidth={112} label="最高优惠（元）" required readOnly={ruleLocked} inputMode="decimal" {...text('maxYuan')} />
                <Field labelWidth={112} label="每日次数" readOnly={ruleLocked} inputMode="numeric" hint="每张卡每天最多享受几次，0 为不限" {...text('perDay')} />
              </>
            )}
            {v.type === '4' && <Field labelWidth={112} label="返还比例（%）" required readOnly={ruleLocked} inputMode="decimal" hint="次日返还票价的百分比，1–100" error={errors.rule} {...text('rebatePct')} />}
          </div>
          <Field labelWidth={112} label="适用线路" readOnly={ruleLocked} placeholder="留空为全部线路；多条用空格分隔" error={errors.scope} {...text('lines')} />
          <fieldset className="mb-4 text-sm" disabled={ruleLocked}>
            <legend className="mb-1 text-gray-700">适用卡类（不选为全部）</legend>
            <div className="flex flex-wrap gap-3">
              {Object.entries(CARD_CATEGORIES).map(([code, label]) => (
                <label key={code} className="inline-flex items-center gap-1">
                  <input type="checkbox" checked={v.cards.includes(Number(code))} onChange={() => set('cards', toggle(v.cards, Number(code)))} />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="mb-4 text-sm" disabled={ruleLocked}>
            <legend className="mb-1 text-gray-700">支付方式（不选为全部）</legend>
            <div className="flex flex-wrap gap-3">
              {ACTIVITY_PAY_CHANNELS.map((c) => (
                <label key={c} className="inline-flex items-center gap-1">
                  <input type="checkbox" checked={v.channels.includes(c)} onChange={() => set('channels', toggle(v.channels, c))} />
                  {c}
                </label>
              ))}
            </div>
          </fieldset>
          <Field labelWidth={112} label="开始时间" required type="datetime-local" readOnly={ruleLocked} error={errors.startAt} {...text('startAt')} />
          <Field labelWidth={112} label="结束时间" required type="datetime-local" readOnly={!canEdit || ended} error={errors.endAt} {...text('endAt')} />
          <Field labelWidth={112} label="预算（元）" required readOnly={!canBudget || ended} inputMode="decimal" hint={activity ? `已使用 ${fenToYuan(activity.usedFen)} 元${canBudget ? '' : '；修改预算需要「活动预算」权限'}` : '优惠总额上限'} error={errors.budgetFen} {...text('budget')} />
          <Field labelWidth={112} label="优先级" readOnly={ruleLocked} inputMode="numeric" hint="0–999，同一乘车命中多个活动时大的优先" error={errors.priority} {...text('priority')} />
          <CheckboxField labelWidth={112} label="可与其他活动叠加" checked={v.stackable} disabled={ruleLocked} onChange={(c) => set('stackable', c)} />
          {!activity && <CheckboxField labelWidth={112} label="保存后立即启用" checked={v.enabled} onChange={(c) => set('enabled', c)} hint="不启用则保存为已暂停（未启用），可先预演再启用" />}
          <div className="mb-2 flex justify-end">
            <Button className="h-8" onClick={rehearse}>
              预演（近30天）
            </Button>
          </div>
        </fieldset>
      </Modal>
      {simulating && <SimulateDialog title={`活动预演 · ${v.name || '新活动'}`} body={simulating} onClose={() => setSimulating(null)} />}
    </>
  );
}
