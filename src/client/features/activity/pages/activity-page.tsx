import { useEffect, useMemo, useState } from 'react';
import {
  ACTIVITY_EDITOR,
  ACTIVITY_PAY_CHANNELS,
  ACTIVITY_STATUS,
  ACTIVITY_TYPES,
  type Activity,
  activityById,
  activityExport,
  activityPage,
  activityTotal,
  activityTypeLabel,
  ruleText,
} from '../../../../shared/api/activity';
import { cardCategoryLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { codeFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { useResourceActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { ActivityFormDialog } from '../components/activity-form';
import { EffectDialog, SimulateDialog } from '../components/simulate-view';
import { activityActions } from '../activity-actions';
import { openView } from '../paths';

const when = (at: string) => formatDateTime(at, 'YYYY-MM-DD HH:mm');

const scopeText = (a: Activity) =>
  [a.scope.lineCodes.length ? `线路 ${a.scope.lineCodes.join('、')}` : '', a.scope.cardCategories.length ? a.scope.cardCategories.map(cardCategoryLabel).join('、') : '', a.scope.payChannels.join('、')].filter(Boolean).join('；') || '全部';

const columns: ListColumn<typeof activityPage>[] = [
  {
    id: 'name',
    header: '活动名称',
    fixed: true,
    cell: (a) => (
      <span className="font-medium text-gray-800">
        {a.name}
        <span className="ml-1 text-xs font-normal text-gray-500">{a.districtName ?? '全市'}</span>
      </span>
    ),
  },
  { id: 'type', header: '类型', cell: (a) => activityTypeLabel(a.type) },
  { id: 'rule', header: '优惠规则', cell: (a) => ruleText(a.type, a.rule) },
  { id: 'scope', header: '适用范围', cell: scopeText },
  { id: 'time', header: '活动时间', sort: 'startAt', cell: (a) => `${when(a.startAt)} 至 ${when(a.endAt)}`, className: 'tabular-nums' },
  {
    id: 'budget',
    header: '已用 / 预算（元）',
    sort: 'usedFen',
    align: 'right',
    cell: (a) => (
      <span className={a.usedFen >= a.budgetFen ? 'text-red-700' : undefined}>
        {fenToYuan(a.usedFen)} / {fenToYuan(a.budgetFen)}
      </span>
    ),
    className: 'tabular-nums',
  },
  { id: 'rides', header: '优惠笔数', align: 'right', cell: (a) => a.rides, className: 'tabular-nums' },
  { id: 'priority', header: '优先级', sort: 'priority', align: 'right', cell: (a) => `${a.priority}${a.stackable ? ' · 可叠加' : ''}`, className: 'tabular-nums' },
  {
    id: 'status',
    header: '状态',
    cell: (a) => (
      <>
        <FlowBadge flow={ACTIVITY_STATUS} code={a.status} />
        {a.neverEnabled && a.status === 2 && <span className="ml-1 text-xs text-gray-500">未启用</span>}
      </>
    ),
  },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (a) => formatDateTime(a.createdDate), className: 'tabular-nums', hiddenByDefault: true },
];

/** What the row's 预演 sends: the saved activity as a draft (its own overlaps left out). */
const draftOf = (a: Activity) => ({ id: a.id, name: a.name, type: a.type, rule: a.rule, scope: { ...a.scope, payChannels: a.scope.payChannels as (typeof ACTIVITY_PAY_CHANNELS)[number][] }, startAt: a.startAt, endAt: a.endAt, budgetFen: a.budgetFen, priority: a.priority, stackable: a.stackable });

/** 活动列表 (ListActivity): the area's and the city's activities, their status and budget, and what may be done with each. */
export function ActivityPage() {
  const canEdit = useAllowed(ACTIVITY_EDITOR);
  const [form, setForm] = useState<Activity | 'new' | null>(null);
  const [simulating, setSimulating] = useState<Activity | null>(null);
  const [effect, setEffect] = useState<{ id: number; days: number } | null>(null);
  // One draft object per activity chosen: the dialog asks again only when it changes.
  const simBody = useMemo(() => (simulating ? draftOf(simulating) : null), [simulating]);
  const list = useResourceList({
    endpoint: activityPage,
    record: 'activity',
    filters: { name: textFilter('活动名称'), status: flowFilter(ACTIVITY_STATUS), type: codeFilter('活动类型', ACTIVITY_TYPES) },
    summary: listSummary(
      activityTotal,
      '活动统计',
      (t) => `共 ${t.total} 个活动 · 进行中 ${t.running} · 未开始 ${t.notStarted} · 已暂停 ${t.paused} · 预算耗尽 ${t.exhausted} · 已结束 ${t.ended} · 预算 ${fenToYuan(t.budgetFen)} 元，已用 ${fenToYuan(t.usedFen)} 元`,
    ),
  });
  const exporter = useExportAction({ on: ['acitivity', 'activity', 'export'], endpoint: activityExport, filters: list.filterQuery });
  const actions = useResourceActions(activityActions, { edit: setForm, simulate: setSimulating, effect: (a) => setEffect({ id: a.id, days: 30 }) }, { rows: list.rows });

  // 活动预演 / 活动效果 from the palette: the activity (and days) through memory.
  const handed = openView.useHandOff();
  useEffect(() => {
    if (!handed) return;
    const [id, days] = handed.q.split(':').map(Number);
    if (!id) return;
    if (handed.then === 'effect') setEffect({ id, days: days || 30 });
    else if (handed.then === 'simulate')
      api.call(activityById, { query: { id } }).then(
        (a) => setSimulating(a),
        () => undefined,
      );
  }, [handed]);

  return (
    <ScreenSection title="活动列表">
      <ResourceTable
        list={list}
        actions={actions}
        id="activity.page"
        label="活动列表"
        columns={columns}
        rowKey={(a) => a.id}
        toolbar={
          <>
            <ExportButton action={exporter} />
            {canEdit && (
              <Button className="h-8" variant="primary" onClick={() => setForm('new')}>
                新增活动
              </Button>
            )}
          </>
        }
      >
        {form && <ActivityFormDialog activity={form === 'new' ? null : form} onClose={() => setForm(null)} />}
        {simulating && simBody && <SimulateDialog title={`活动预演 · ${simulating.name}`} body={simBody} onClose={() => setSimulating(null)} />}
        {effect && <EffectDialog id={effect.id} days={effect.days} onClose={() => setEffect(null)} />}
      </ResourceTable>
    </ScreenSection>
  );
}
