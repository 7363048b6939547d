import { useMemo, useState } from 'react';
import { type LineVersion, lineVersion } from '../../../../shared/api';
import { VERSION_STATUS, VERSION_TRANSITIONS, type VersionStatus } from '../../../../shared/api/line-version';
import { formatDateTime, parseTypedDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { Field } from '../../../components/field';
import { Modal, ModalActions } from '../../../components/modal';
import { ScreenSection } from '../../../components/screen-section';
import { useTableState } from '../../../components/table-state';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { queryText } from '../../../lib/http';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { useNoAreaChosen } from '../../../lib/current-user';
import { AddVersionDialog } from '../components/add-version-dialog';
import { DiffDialog } from '../components/diff-dialog';
import { districtOf, versionTitle } from '../version-title';

const FILTER_KEYS = ['status'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

const STATUS_STYLE: Record<VersionStatus, string> = {
  0: 'bg-blue-50 text-blue-700',
  1: 'bg-orange-50 text-orange-700',
  2: 'bg-green-50 text-green-700',
  3: 'bg-green-700 text-white',
  4: 'bg-gray-100 text-gray-600',
  5: 'bg-gray-100 text-gray-600',
};

/**
 * The buttons a person may press for a status (the job alone takes a version online). Submitting
 * and returning can be undone by the other; passing cannot (a passed version is only scheduled or
 * voided), so it asks first, as 作废 does.
 */
const ACTIONS: Record<VersionStatus, readonly { to: VersionStatus; label: string; asks?: true }[]> = {
  0: [{ to: 1, label: '提交审核' }],
  1: [
    { to: 2, label: '审核通过', asks: true },
    { to: 0, label: '退回' },
  ],
  2: [],
  3: [],
  4: [],
  5: [],
};

/** The two steps that cannot be taken back, each asked in a dialog naming the version and its district. */
type Asking = { to: 2 | 5; version: LineVersion };
const ASK_LABEL = { 2: '审核通过', 5: '作废' } as const;

/**
 * 线网版本 (ListVersion): a district's network versions and their life: submit (checked against
 * the network), pass or return, an online time for a passed one (the job takes it online then),
 * void. Only an open version is edited.
 */
export function VersionPage() {
  const table = useTableState<FilterKey>({ filters: FILTER_KEYS, schema: lineVersion.versionPage.query });
  const versions = useApi(lineVersion.versionPage, { query: table.query });
  const canStatus = useAllowed(lineVersion.versionUpdateStatus.permission);
  const canSchedule = useAllowed(lineVersion.versionSetOnlineTime.permission);
  const canVoid = useAllowed(lineVersion.versionDelete.permission);
  const [scheduling, setScheduling] = useState<LineVersion | null>(null);
  const [comparing, setComparing] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
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
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);

  // The palette's 作废版本 and 审核通过版本 land here (`?action=void&id=`): the same question as the buttons.
  const askFromPalette = (to: 2 | 5) => async (args: URLSearchParams) => {
    const id = Number(args.get('id'));
    const from = to === 5 ? ([0, 1, 2] as const) : ([1] as const);
    const v = versions.data?.content.find((x) => x.id === id) ?? (await findVersion(id, from));
    if (!v) {
      toast.error('版本不存在，或已不在可操作的状态');
      return;
    }
    if ((to === 5 ? canVoid : canStatus) && VERSION_TRANSITIONS[v.status].includes(to)) setAsking({ to, version: v });
  };
  useScreenAction(['version', 'version', 'void'], (args) => void askFromPalette(5)(args), ['id']);
  useScreenAction(['version', 'version', 'pass'], (args) => void askFromPalette(2)(args), ['id']);

  useScreenAction(['version', 'version', 'schedule'],
    (args) => {
      const id = Number(args.get('id'));
      const v = versions.data?.content.find((x) => x.id === id);
      if (v && canSchedule) setScheduling(v);
    },
    ['id'],
  );

  const act = async (v: LineVersion, to: VersionStatus, label: string) => {
    if (busy) return;
    setBusy(true);
    try {
      if (to === 5) await api.call(lineVersion.versionDelete, { body: { id: v.id } });
      else await api.call(lineVersion.versionUpdateStatus, { body: { id: v.id, status: to } });
      toast.success(`版本${versionTitle(v)}已${label}`);
    } catch {
      // The refusal (with the first problem found) is in the toast; asking again would get the same answer.
    } finally {
      setAsking(null);
      setBusy(false);
      void versions.mutate();
    }
  };

  const filters = useMemo<FilterDef<FilterKey>[]>(
    () => [
      {
        key: 'status',
        label: '状态',
        type: 'select',
        options: [{ value: '', label: '全部' }, ...Object.entries(VERSION_STATUS).map(([value, label]) => ({ value, label }))],
      },
    ],
    [],
  );
  const columns: Column<LineVersion>[] = [
    { id: 'name', header: '版本名称', fixed: true, cell: (v) => <span className="font-medium text-gray-800">{v.name}</span> },
    { id: 'district', header: '区域', cell: (v) => v.districtName ?? '—' },
    { id: 'status', header: '状态', sort: 'status', cell: (v) => <span className={`rounded px-1.5 py-0.5 text-xs ${STATUS_STYLE[v.status]}`}>{VERSION_STATUS[v.status]}</span> },
    { id: 'lines', header: '线路数', align: 'right', cell: (v) => v.lineCount, className: 'tabular-nums' },
    { id: 'onlineAt', header: '上线时间', cell: (v) => (v.wentOnlineAt ? formatDateTime(v.wentOnlineAt) : v.onlineAt ? `计划 ${formatDateTime(v.onlineAt, 'YYYY-MM-DD HH:mm')}` : '—'), className: 'tabular-nums' },
    { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (v) => formatDateTime(v.createdDate), className: 'tabular-nums' },
    {
      id: 'actions',
      header: '操作',
      fixed: true,
      cell: (v) => (
        <span className="flex flex-wrap gap-1">
          {v.status !== 3 && (
            <Button variant="text" onClick={() => setComparing(v.id)} aria-label={`对比 ${v.name}`}>
              对比
            </Button>
          )}
          {canStatus &&
            ACTIONS[v.status].map((a) => (
              <Button
                key={a.to}
                variant="text"
                disabled={busy}
                onClick={() => (a.asks ? setAsking({ to: 2, version: v }) : void act(v, a.to, a.label))}
                aria-label={`${a.label} ${v.name}`}
                aria-haspopup={a.asks ? 'dialog' : undefined}
              >
                {a.label}
              </Button>
            ))}
          {canSchedule && v.status === 2 && (
            <Button variant="text" onClick={() => setScheduling(v)} aria-label={`设置上线时间 ${v.name}`}>
              设置上线时间
            </Button>
          )}
          {canVoid && VERSION_TRANSITIONS[v.status].includes(5) && (
            <Button variant="text" className="!text-red-600" disabled={busy} onClick={() => setAsking({ to: 5, version: v })} aria-label={`作废 ${v.name}`} aria-haspopup="dialog">
              作废
            </Button>
          )}
        </span>
      ),
    },
  ];
  return (
    <ScreenSection title="线网版本">
      <DataTable
        id="version.list"
        label="线网版本列表"
        columns={columns}
        rowKey={(v) => v.id}
        result={versions}
        state={table}
        filters={filters}
        onRowActivate={(v) => v.status !== 3 && setComparing(v.id)}
        activateHint={(v) => (v.status !== 3 ? '按 Enter 对比线上版本' : undefined)}
        toolbar={
          canAdd && (
            <Button variant="primary" className="h-8" disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined} onClick={() => setAdding(true)}>
              ＋ 新增版本
            </Button>
          )
        }
      />
      <ConfirmDialog
        open={!!asking}
        irreversible
        danger={asking?.to === 5}
        title={asking ? `${ASK_LABEL[asking.to]}版本${versionTitle(asking.version)}` : ''}
        confirmLabel={asking ? ASK_LABEL[asking.to] : ''}
        busy={busy}
        onConfirm={() => asking && void act(asking.version, asking.to, ASK_LABEL[asking.to])}
        onClose={() => setAsking(null)}
      >
        {asking && <AskText asking={asking} />}
      </ConfirmDialog>
      {comparing && <DiffDialog versionId={comparing} onClose={() => setComparing(null)} />}
      {adding && <AddVersionDialog onClose={() => setAdding(false)} onSaved={() => setAdding(false)} />}
      {scheduling && (
        <ScheduleDialog
          version={scheduling}
          onClose={() => setScheduling(null)}
          onSaved={() => {
            setScheduling(null);
            void versions.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}

/** What 作废 and 审核通过 ask: the version, its district, its status and lines, and what follows. */
function AskText({ asking: { to, version: v } }: { asking: Asking }) {
  const named = (
    <>
      <b>{districtOf(v)}</b> 的版本 <b>「{v.name}」</b>（{VERSION_STATUS[v.status]}，{v.lineCount} 条线路）
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
