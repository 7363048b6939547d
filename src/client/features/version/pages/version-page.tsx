import { useState } from 'react';
import { type LineVersion, lineVersion } from '../../../../shared/api';
import { VERSION_STATE, type VersionStatus } from '../../../../shared/api/line-version';
import { formatDateTime, parseTypedDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { Modal, ModalActions } from '../../../components/modal';
import { flowFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { type RowAction, callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { queryText } from '../../../lib/http';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { useScreenAction } from '../../../lib/screen-action';
import { useNoAreaChosen } from '../../../lib/current-user';
import { AddVersionDialog } from '../components/add-version-dialog';
import { DiffDialog } from '../components/diff-dialog';
import { districtOf, versionTitle } from '../version-title';

const columns: ListColumn<typeof lineVersion.versionPage>[] = [
  { id: 'name', header: '版本名称', fixed: true, cell: (v) => <span className="font-medium text-gray-800">{v.name}</span> },
  { id: 'district', header: '区域', cell: (v) => v.districtName ?? '—' },
  { id: 'status', header: '状态', sort: 'status', cell: (v) => <FlowBadge flow={VERSION_STATE} code={v.status} /> },
  { id: 'lines', header: '线路数', align: 'right', cell: (v) => v.lineCount, className: 'tabular-nums' },
  { id: 'onlineAt', header: '上线时间', cell: (v) => (v.wentOnlineAt ? formatDateTime(v.wentOnlineAt) : v.onlineAt ? `计划 ${formatDateTime(v.onlineAt, 'YYYY-MM-DD HH:mm')}` : '—'), className: 'tabular-nums' },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (v) => formatDateTime(v.createdDate), className: 'tabular-nums' },
];

const UPDATE = lineVersion.versionUpdateStatus;
const toStatus = (status: VersionStatus) => (v: LineVersion) => ({ body: { id: v.id, status } });
const done = (label: string) => (v: LineVersion) => `版本${versionTitle(v)}已${label}`;

/**
 * What a person may do with a version's status, as the flow allows it (the job alone takes one
 * online). Submitting and returning each undo the other, so they offer 撤销; passing and voiding
 * cannot be taken back (a passed version is only scheduled or voided), so they ask, naming the
 * version and its district. A refusal (an empty version, the network's first problem) is final:
 * the toast says it and the question closes.
 */
const statusActions: readonly RowAction<LineVersion>[] = [
  callAction({
    id: 'submit',
    label: '提交审核',
    hotkey: 's',
    permission: UPDATE.permission,
    when: (v) => VERSION_STATE.can(v.status, 1),
    endpoint: UPDATE,
    input: toStatus(1),
    done: done('提交审核'),
    undo: { input: toStatus(0), done: (v) => `已撤销：版本${versionTitle(v)}退回开放编辑` },
  }),
  callAction({
    id: 'pass',
    label: '审核通过',
    hotkey: 'p',
    permission: UPDATE.permission,
    when: (v) => VERSION_STATE.can(v.status, 2),
    endpoint: UPDATE,
    input: toStatus(2),
    done: done('审核通过'),
    confirm: { title: (v) => `审核通过版本${versionTitle(v)}`, body: (v) => <AskText to={2} version={v} />, irreversible: true, closeOnRefusal: true },
  }),
  callAction({
    id: 'return',
    label: '退回',
    hotkey: 'r',
    permission: UPDATE.permission,
    when: (v) => VERSION_STATE.can(v.status, 0),
    endpoint: UPDATE,
    input: toStatus(0),
    done: done('退回'),
    undo: { input: toStatus(1), done: (v) => `已撤销：版本${versionTitle(v)}重新提交审核` },
  }),
];

const voidAction = callAction({
  id: 'void',
  label: '作废',
  permission: lineVersion.versionDelete.permission,
  danger: true,
  when: (v: LineVersion) => VERSION_STATE.can(v.status, 5),
  endpoint: lineVersion.versionDelete,
  input: (v) => ({ body: { id: v.id } }),
  done: done('作废'),
  confirm: { title: (v) => `作废版本${versionTitle(v)}`, body: (v) => <AskText to={5} version={v} />, irreversible: true, closeOnRefusal: true },
});

/**
 * 线网版本 (ListVersion): a district's network versions and their life: submit (checked against
 * the network), pass or return, an online time for a passed one (the job takes it online then),
 * void. Only an open version is edited.
 */
export function VersionPage() {
  const list = useResourceList({ endpoint: lineVersion.versionPage, filters: { status: flowFilter(VERSION_STATE, '状态') } });
  const [scheduling, setScheduling] = useState<LineVersion | null>(null);
  const [comparing, setComparing] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const revalidate = useRevalidate();
  const actions = useRowActions<LineVersion>(
    [
      { id: 'diff', label: '对比', hotkey: 'd', primary: true, permission: lineVersion.versionDiff.permission, when: (v) => v.status !== 3, open: (v) => setComparing(v.id) },
      ...statusActions,
      { id: 'schedule', label: '设置上线时间', hotkey: 't', permission: lineVersion.versionSetOnlineTime.permission, when: (v) => v.status === 2, open: setScheduling },
      voidAction,
    ],
    (v) => v.name,
  );
  const canAdd = useAllowed(lineVersion.versionAdd.permission);
  const noArea = useNoAreaChosen();
  useScreenAction(['version', 'version', 'add'], () => canAdd && setAdding(true));
  useScreenAction(['version', 'version', 'diff'],
    (args) => {
      const id = Number(args.get('id'));
      if (id > 0) setComparing(id);
    },
    ['id'],
  );

  // The palette's 作废版本 and 审核通过版本 land here (`?action=void&id=`): the same question as the buttons.
  const askFromPalette = (id: 'void' | 'pass') => async (args: URLSearchParams) => {
    const versionId = Number(args.get('id'));
    const from = id === 'void' ? VERSION_STATE.sources(5) : VERSION_STATE.sources(2);
    const v = list.rows.find((x) => x.id === versionId) ?? (await findVersion(versionId, from));
    if (!v) {
      toast.error('版本不存在，或已不在可操作的状态');
      return;
    }
    const action = actions.of(v).find((a) => a.id === id);
    if (action) actions.trigger(action, v);
  };
  useScreenAction(['version', 'version', 'void'], (args) => void askFromPalette('void')(args), ['id']);
  useScreenAction(['version', 'version', 'pass'], (args) => void askFromPalette('pass')(args), ['id']);
  useScreenAction(['version', 'version', 'schedule'],
    (args) => {
      const v = list.rows.find((x) => x.id === Number(args.get('id')));
      const action = v && actions.of(v).find((a) => a.id === 'schedule');
      if (v && action) actions.trigger(action, v);
    },
    ['id'],
  );

  return (
    <ScreenSection title="线网版本">
      <ResourceTable
        list={list}
        actions={actions}
        id="version.list"
        label="线网版本列表"
        columns={columns}
        rowKey={(v) => v.id}
        activateHint={(v) => (v.status !== 3 ? '按 Enter 对比线上版本' : undefined)}
        toolbar={
          canAdd && (
            <Button variant="primary" className="h-8" disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined} onClick={() => setAdding(true)}>
              ＋ 新增版本
            </Button>
          )
        }
      >
        {comparing && <DiffDialog versionId={comparing} onClose={() => setComparing(null)} />}
        {adding && <AddVersionDialog onClose={() => setAdding(false)} onSaved={() => setAdding(false)} />}
        {scheduling && (
          <ScheduleDialog
            version={scheduling}
            onClose={() => setScheduling(null)}
            onSaved={() => {
              setScheduling(null);
              void revalidate(lineVersion.versionSetOnlineTime);
            }}
          />
        )}
      </ResourceTable>
    </ScreenSection>
  );
}

/** What 作废 and 审核通过 ask: the version, its district, its status and lines, and what follows. */
function AskText({ to, version: v }: { to: 2 | 5; version: LineVersion }) {
  const named = (
    <>
      <b>{districtOf(v)}</b> 的版本 <b>「{v.name}」</b>（{VERSION_STATE.label(v.status)}，{v.lineCount} 条线路）
    </>
  );
  return to === 5 ? (
    <p>确定作废 {named} 吗？作废后它不能再编辑、审核或上线，也不能恢复；版本的记录仍会保留。</p>
  ) : (
    <p>确定审核通过 {named} 吗？通过后它不能再修改或退回，只能设置上线时间或作废。</p>
  );
}

/** The version by id in one of the statuses (a palette choice may be on another page of the list). */
async function findVersion(id: number, statuses: readonly VersionStatus[]): Promise<LineVersion | undefined> {
  try {
    const pages = await Promise.all(statuses.map((status) => api.call(lineVersion.versionPage, { query: { page: 0, size: 100, status: queryText(status) } }, { silent: true })));
    return pages.flatMap((p) => p.content).find((v) => v.id === id);
  } catch {
    return undefined;
  }
}

/** 设置上线时间: typed as 2026-12-01 05:00 (Shanghai); the job takes the version online then. */
function ScheduleDialog({ version, onClose, onSaved }: { version: LineVersion; onClose(): void; onSaved(): void }) {
  const [text, setText] = useState(version.onlineAt ? formatDateTime(version.onlineAt, 'YYYY-MM-DD HH:mm') : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const iso = parseTypedDateTime(text);
    if (!iso) return setError('请输入上线时间，如 2026-12-01 05:00');
    setBusy(true);
    try {
      await api.call(lineVersion.versionSetOnlineTime, { body: { id: version.id, onlineAt: iso } }, { silent: true });
      toast.success(`版本${versionTitle(version)}将于 ${text} 上线`);
      onSaved();
    } catch (err) {
      setError(err instanceof Error ? err.message : '保存失败');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={`设置上线时间 · ${version.name}`} onClose={onClose} dirty={!!text && text !== (version.onlineAt ?? '')} onSubmit={() => void submit()} footer={<ModalActions onCancel={onClose} busy={busy} />}>
      <Field label="上线时间" required autoFocus inputMode="numeric" placeholder="YYYY-MM-DD HH:mm" value={text} onChange={(e) => (setText(e.target.value), setError(null))} error={error ?? undefined} hint="上海时间；到点后由系统自动上线，原线网同时下线" />
    </Modal>
  );
}
