import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import {
  ACTIVITY_EDITOR,
  ACTIVITY_PAY_CHANNELS,
  ACTIVITY_READ,
  ACTIVITY_SAVER,
  ACTIVITY_STATUS,
  ACTIVITY_STATUS_MOVER,
  ACTIVITY_TYPES,
  type Activity,
  activityById,
  activityCopy,
  activityExport,
  activityPage,
  activityTotal,
  activityTypeLabel,
  activityUpdateStatus,
  ruleText,
} from '../../../../shared/api/activity';
import { cardCategoryLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { codeFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { ActivityFormDialog } from '../components/activity-form';
import { EffectDialog, SimulateDialog } from '../components/simulate-view';
import { openView, recordPath } from '../paths';

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

const move = (a: Activity, action: '暂停' | '恢复' | '结束') => ({ body: { id: a.id, action, rowVersion: a.rowVersion } });

/** What the row's 预演 sends: the saved activity as a draft (its own overlaps left out). */
const draftOf = (a: Activity) => ({ id: a.id, name: a.name, type: a.type, rule: a.rule, scope: { ...a.scope, payChannels: a.scope.payChannels as (typeof ACTIVITY_PAY_CHANNELS)[number][] }, startAt: a.startAt, endAt: a.endAt, budgetFen: a.budgetFen, priority: a.priority, stackable: a.stackable });

function useActivityActions(open: { edit(a: Activity): void; simulate(a: Activity): void; effect(a: Activity): void; record(a: Activity): void }) {
  // A city-wide activity is changed only across all areas (the super user with no area chosen), as the server enforces.
  const acrossAll = useNoAreaChosen();
  const mine = (a: Activity) => a.districtId !== null || acrossAll;
  return useRowActions<Activity>(
    [
      { id: 'edit', label: (a) => (a.status === 3 || !mine(a) ? '查看' : '编辑'), hotkey: 'e', primary: true, permission: ACTIVITY_SAVER, open: open.edit },
      callAction({
        id: 'pause',
        label: '暂停',
        hotkey: 'p',
        danger: true,
        permission: ACTIVITY_STATUS_MOVER,
        when: (a) => mine(a) && (a.status === 0 || a.status === 1 || a.status === 4),
        endpoint: activityUpdateStatus,
        input: (a) => move(a, '暂停'),
        done: (a) => `已暂停活动「${a.name}」`,
        undo: { input: (a, moved) => ({ body: { id: a.id, action: '恢复' as const, rowVersion: moved.rowVersion } }), done: (a) => `已撤销：活动「${a.name}」恢复` },
      }),
      callAction({
        id: 'resume',
        label: (a) => (a.neverEnabled ? '启用' : '恢复'),
        hotkey: 'r',
        permission: ACTIVITY_STATUS_MOVER,
        when: (a) => mine(a) && a.status === 2,
        endpoint: activityUpdateStatus,
        input: (a) => move(a, '恢复'),
        done: (a) => `已${a.neverEnabled ? '启用' : '恢复'}活动「${a.name}」`,
      }),
      callAction({
        id: 'end',
        label: '结束',
        hotkey: 'q',
        danger: true,
        permission: ACTIVITY_STATUS_MOVER,
        when: (a) => mine(a) && a.status !== 3,
        endpoint: activityUpdateStatus,
        input: (a) => move(a, '结束'),
        done: (a) => `已结束活动「${a.name}」`,
        confirm: { title: '结束活动', irreversible: true, body: (a) => <p>确定结束活动「{a.name}」吗？结束后不能重新启用，如需再办请复制为新活动。</p> },
      }),
      callAction({
        id: 'copy',
        label: '复制',
        hotkey: 'c',
        permission: ACTIVITY_EDITOR,
        when: mine,
        endpoint: activityCopy,
        input: (a) => ({ body: { id: a.id } }),
        done: (a) => `已复制活动「${a.name}」（副本未启用，从明天开始）`,
      }),
      { id: 'simulate', label: '预演', hotkey: 's', permission: ACTIVITY_READ, open: open.simulate },
      { id: 'effect', label: '效果', hotkey: 'v', permission: ACTIVITY_READ, open: open.effect },
      { id: 'record', label: '记录', hotkey: 'l', permission: ACTIVITY_READ, open: open.record },
    ],
    (a) => a.name,
  );
}

/** 活动列表 (ListActivity): the area's and the city's activities, their status and budget, and what may be done with each. */
export function ActivityPage() {
  const [, navigate] = useLocation();
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
  const actions = useActivityActions({ edit: setForm, simulate: setSimulating, effect: (a) => setEffect({ id: a.id, days: 30 }), record: (a) => navigate(recordPath(a.id)) });

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
