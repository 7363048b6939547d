import { useState } from 'react';
import { type Cluster, type Demand, REPLY_MAX, customDemandById, customDemandCandidateLines, customDemandHandle, customDemandToLine } from '../../../../shared/api/custom-bus/demand';
import { DEMAND_STATE } from '../../../../shared/api/custom-bus/states';
import { hhmm } from '../../../../shared/custom/demand-grid';
import { yuanToFen } from '../../../../shared/domain/money';
import { addDays, formatDateTime, shanghaiDate } from '../../../../shared/domain/time';
import { Field } from '../../../components/field';
import { FormError, SelectField, TextAreaField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';

type StateCode = (typeof DEMAND_STATE.codes)[number];
const km = (m: number) => `${(m / 1000).toFixed(1)} 公里`;
export const windowText = (d: Pick<Demand, 'goFrom' | 'goTo'>) => `${hhmm(d.goFrom)}–${hhmm(d.goTo)}`;

/** 需求详情: the demand, its riders and ★ how many of them later bought on its line. */
export function DemandDetailDialog({ id, onClose }: { id: number; onClose(): void }) {
  const got = useApi(customDemandById, { query: { id } });
  const d = got.data;
  return (
    <Modal open title={`定制需求 #${id}`} onClose={onClose}>
      {!d ? (
        <p role="status" className="text-sm text-gray-700">
          {got.error ? '无法加载需求详情' : '加载中…'}
        </p>
      ) : (
        <DetailList
          termWidth="7rem"
          items={[
            { term: '线路需求', value: `${d.fromName} → ${d.toName}（${km(d.distanceM)}）` },
            { term: '去程时段', value: windowText(d) },
            { term: '返程时段', value: d.backFrom === null || d.backTo === null ? '—' : `${hhmm(d.backFrom)}–${hhmm(d.backTo)}` },
            { term: '报名 / 门槛', value: <span className="tabular-nums">{`${d.supporters} / ${d.threshold}${d.supporters >= d.threshold ? '（已达标）' : ''}`}</span> },
            { term: '状态', value: <FlowBadge flow={DEMAND_STATE} code={d.state} /> },
            { term: '开通线路', value: d.lineNo ? `${d.lineNo} ${d.lineName ?? ''}` : '—' },
            { term: '回复', value: d.reply || '—' },
            { term: '报名记录', value: <span className="tabular-nums">{`${d.records} 条，${d.riders} 位乘客`}</span> },
            {
              term: '开通后购票',
              value: d.lineId === null ? '未开通' : <span className="tabular-nums">{`${d.buyers} 位报名乘客已购票（${d.buyerOrders} 笔订单，占 ${d.riders ? Math.round((d.buyers * 100) / d.riders) : 0}%）`}</span>,
            },
            { term: '处理时间', value: d.handledDate ? formatDateTime(d.handledDate) : '—' },
          ]}
        />
      )}
    </Modal>
  );
}

const MOVE_LABEL: Record<StateCode, string> = { 0: '重新打开', 1: '开通', 2: '暂不开通' };

/**
 * 处理需求: the moves its state allows (开通 with a line of its district, 暂不开通 with a reply,
 * 重新打开); below the threshold 开通 asks for an 开通说明 — the server's rule, said before sending.
 */
export function HandleDemandDialog({ demand, onClose }: { demand: Demand; onClose(): void }) {
  const targets = DEMAND_STATE.targets(demand.state);
  const lines = useApi(customDemandCandidateLines, { query: { id: demand.id } });
  const form = useContractForm(customDemandHandle, {
    initial: { toState: String(targets[0] ?? ''), lineId: '', reply: '' },
    toInput: (v) => ({
      body: { id: demand.id, fromState: demand.state, toState: Number(v.toState) as StateCode, lineId: v.lineId ? Number(v.lineId) : undefined, reply: v.reply, rowVersion: demand.rowVersion },
    }),
    check: (v): Record<string, string> | null => {
      if (v.toState === '1' && !v.lineId) return { lineId: '请选择开通的线路' };
      if (v.toState === '1' && demand.supporters < demand.threshold && !v.reply.trim()) return { reply: `报名人数未达开通门槛（${demand.supporters}/${demand.threshold}），请填写开通说明` };
      if (v.toState === '2' && !v.reply.trim()) return { reply: '请填写暂不开通的原因' };
      return null;
    },
    success: (d) => `定制需求「${d.fromName}→${d.toName}」已${DEMAND_STATE.label(d.state)}`,
    onSaved: onClose,
  });
  const { values, errors, set } = form;
  const opening = values.toState === '1';
  return (
    <Modal
      open
      title={`处理需求 · ${demand.fromName} → ${demand.toName}`}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} disabled={!targets.length} submitLabel={values.toState ? MOVE_LABEL[Number(values.toState) as StateCode] : '处理'} />}
    >
      <FormError>{errors['']}</FormError>
      <p className="mb-3 text-sm text-gray-700">
        当前 <FlowBadge flow={DEMAND_STATE} code={demand.state} /> · 报名 <span className="tabular-nums">{demand.supporters}/{demand.threshold}</span> · 去程 {windowText(demand)}
      </p>
      {!targets.length ? (
        <p role="status" className="text-sm text-gray-700">
          已开通的需求不能再处理。
        </p>
      ) : (
        <>
          <SelectField label="处理为" required autoFocus value={values.toState} onChange={(e) => set('toState', e.target.value)} options={targets.map((c) => ({ value: String(c), label: MOVE_LABEL[c] }))} error={errors.toState} />
          {opening && (
            <SelectField
              label="开通线路"
              required
              value={values.lineId}
              onChange={(e) => set('lineId', e.target.value)}
              placeholder={lines.data ? (lines.data.lines.length ? '请选择本区域的线路' : '本区域还没有线路，可用“生成线路”') : '加载中…'}
              options={(lines.data?.lines ?? []).map((l) => ({
                value: String(l.id),
                label: `${l.lineNo} ${l.name}（${hhmm(l.departTime)}${l.fromM !== null && l.toM !== null ? `，起点距 ${km(l.fromM)} 终点距 ${km(l.toM)}` : ''}）`,
              }))}
              error={errors.lineId}
            />
          )}
          <TextAreaField
            label={opening ? '开通说明' : values.toState === '2' ? '回复' : '备注'}
            required={values.toState === '2' || (opening && demand.supporters < demand.threshold)}
            maxLength={REPLY_MAX}
            rows={3}
            value={values.reply}
            onChange={(e) => set('reply', e.target.value)}
            hint={opening && demand.supporters < demand.threshold ? `报名人数未达开通门槛（${demand.supporters}/${demand.threshold}），请说明开通原因` : `最多 ${REPLY_MAX} 字，乘客可见`}
            error={errors.reply}
          />
        </>
      )}
    </Modal>
  );
}

/** ★ 需求成线's source: a demand (its areas and window) or a heat cluster (its cells and window). */
export type LineSource = { demand: Demand; cluster?: undefined } | { cluster: Cluster; demand?: undefined };

const proposedName = (from: string, to: string) => `${from.replace(/周边$/, '')}-${to}`.slice(0, 15);

/**
 * 生成线路: a draft line from the source, its stops snapped to the nearest stations, leaving at the
 * window's median, and its first week of weekday classes, in one step. The proposal is filled in;
 * the operator sets the number, name, price and seats and confirms with Enter.
 */
export function ToLineDialog({ source, onClose, onDone }: { source: LineSource; onClose(): void; onDone?(lineNo: string): void }) {
  const from = source.demand ? source.demand.fromName : source.cluster.homeName || source.cluster.homeCell;
  const to = source.demand ? source.demand.toName : source.cluster.workName || source.cluster.workCell;
  const below = source.demand ? source.demand.supporters < source.demand.threshold : false;
  const [tag] = useState(() => `DX${(source.demand?.id ?? Date.now() % 100_000).toString().padStart(3, '0')}`.slice(0, 12));
  const form = useContractForm(customDemandToLine, {
    initial: { lineNo: tag, name: proposedName(from, to), price: '10', seats: '45', startDate: addDays(shanghaiDate(), 1), reply: '' },
    toInput: (v) => ({
      body: {
        demandId: source.demand?.id,
        cluster: source.cluster ? { districtId: source.cluster.districtId, homeCell: source.cluster.homeCell, workCell: source.cluster.workCell, window: source.cluster.window } : undefined,
        lineNo: v.lineNo,
        name: v.name,
        price: yuanToFen(v.price) ?? Number.NaN,
        seats: Number(v.seats),
        startDate: v.startDate || undefined,
        reply: v.reply,
      },
    }),
    check: (v): Record<string, string> | null => (yuanToFen(v.price) === null ? { price: '请输入票价（元），如 8.50' } : below && !v.reply.trim() ? { reply: `报名人数未达开通门槛（${source.demand!.supporters}/${source.demand!.threshold}），请填写开通说明` } : null),
    errorFields: ['lineNo', 'name', 'price', 'seats', 'startDate', 'reply', 'demandId', 'cluster'],
    success: (r) => `已生成草稿线路 ${r.lineNo}「${r.name}」，${hhmm(r.departTime)} 发车，首周 ${r.classes} 个班次（待售）`,
    onSaved: (r) => {
      onDone?.(r.lineNo);
      onClose();
    },
  });
  const { values, errors, set } = form;
  const snaps = source.cluster ? [source.cluster.homeSnap, source.cluster.workSnap] : null;
  return (
    <Modal open title={`生成线路 · ${from} → ${to}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="生成草稿线路" />}>
      <FormError>{errors[''] ?? errors.cluster ?? errors.demandId}</FormError>
      <div className="mb-3 rounded border border-blue-100 bg-blue-50 px-3 py-2 text-sm text-gray-800">
        {source.cluster ? (
          <p>
            {source.cluster.supporters} 人 · 出发中位 {hhmm(source.cluster.medianGoTime)} · 起点站 {snaps![0] ? `${snaps![0].name}（${snaps![0].distanceM} 米）` : '1公里内无站点'} · 终点站{' '}
            {snaps![1] ? `${snaps![1].name}（${snaps![1].distanceM} 米）` : '1公里内无站点'}
          </p>
        ) : (
          <p>
            报名 {source.demand.supporters}/{source.demand.threshold} · 去程 {windowText(source.demand)} · 站点按起终点 1 公里内最近的站点吸附
          </p>
        )}
        <p className="mt-1 text-xs text-gray-600">生成草稿线路（上行）、两个站点和首周工作日班次（待售），需求随之标记为已开通；上架与开售在线路和班次页面进行。</p>
      </div>
      <Field label="线路编号" required autoFocus maxLength={12} value={values.lineNo} onChange={(e) => set('lineNo', e.target.value)} error={errors.lineNo} hint="字母、数字或 -，如 D201" />
      <Field label="线路名称" required maxLength={15} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} />
      <Field label="票价" required inputMode="decimal" value={values.price} onChange={(e) => set('price', e.target.value)} error={errors.price} hint="单位：元" />
      <Field label="座位数" required inputMode="numeric" value={values.seats} onChange={(e) => set('seats', e.target.value)} error={errors.seats} hint="每班次发行座位，1–80" />
      <Field label="首班日期" required value={values.startDate} onChange={(e) => set('startDate', e.target.value)} error={errors.startDate} hint="YYYY-MM-DD，生成该日起7天内的工作日班次" />
      {source.demand && (
        <TextAreaField label="开通说明" required={below} maxLength={REPLY_MAX} rows={2} value={values.reply} onChange={(e) => set('reply', e.target.value)} error={errors.reply} hint={below ? `报名人数未达开通门槛（${source.demand.supporters}/${source.demand.threshold}）` : '选填，乘客可见'} />
      )}
    </Modal>
  );
}
