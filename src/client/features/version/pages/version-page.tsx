import { useState } from 'react';
import { type LineVersion, lineVersion } from '../../../../shared/api';
import { VERSION_STATE } from '../../../../shared/api/line-version';
import { formatDateTime, parseTypedDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { Modal, ModalActions } from '../../../components/modal';
import { flowFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useResourceActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { refusalShown } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { staleRefusal } from '../../../lib/use-stale-save';
import { StaleNote } from '../../../components/stale-note';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { useScreenAction } from '../../../lib/screen-action';
import { useNoAreaChosen } from '../../../lib/current-user';
import { AddVersionDialog } from '../components/add-version-dialog';
import { DiffDialog } from '../components/diff-dialog';
import { findVersion, versionActions } from '../version-actions';
import { versionTitle } from '../version-title';

const columns: ListColumn<typeof lineVersion.versionPage>[] = [
  { id: 'name', header: '版本名称', fixed: true, cell: (v) => <span className="font-medium text-gray-800">{v.name}</span> },
  { id: 'district', header: '区域', cell: (v) => v.districtName ?? '—' },
  { id: 'status', header: '状态', sort: 'status', cell: (v) => <FlowBadge flow={VERSION_STATE} code={v.status} /> },
  { id: 'lines', header: '线路数', align: 'right', cell: (v) => v.lineCount, className: 'tabular-nums' },
  { id: 'onlineAt', header: '上线时间', cell: (v) => (v.wentOnlineAt ? formatDateTime(v.wentOnlineAt) : v.onlineAt ? `计划 ${formatDateTime(v.onlineAt, 'YYYY-MM-DD HH:mm')}` : '—'), className: 'tabular-nums' },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (v) => formatDateTime(v.createdDate), className: 'tabular-nums' },
];

/**
 * 线网版本 (ListVersion): a district's network versions and their life: submit (checked against
 * the network), pass or return, an online time for a passed one (the job takes it online then),
 * void. Only an open version is edited.
 */
export function VersionPage() {
  const list = useResourceList({ endpoint: lineVersion.versionPage, record: 'version', filters: { status: flowFilter(VERSION_STATE, '状态') } });
  const [scheduling, setScheduling] = useState<LineVersion | null>(null);
  const [comparing, setComparing] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const revalidate = useRevalidate();
  const actions = useResourceActions(versionActions, { diff: (v) => setComparing(v.id), schedule: setScheduling }, { rows: list.rows });
  const canAdd = useAllowed(lineVersion.versionAdd.permission);
  const noArea = useNoAreaChosen();
  useScreenAction(['version', 'version', 'add'], () => canAdd && setAdding(true));
  // The palette's 作废版本 and 审核通过版本 land here (`?action=void&id=`): the same question as the buttons.
  const askFromPalette = (id: 'void' | 'pass') => async (args: URLSearchParams) => {
    const versionId = Number(args.get('id'));
    const v = list.rows.find((x) => x.id === versionId) ?? (await findVersion(versionId));
    // The action's own rule decides (a version passed or voided since is no longer asked about).
    const action = v && actions.of(v).find((a) => a.id === id);
    if (!v || !action) {
      toast.error('版本不存在，或已不在可操作的状态');
      return;
    }
    actions.trigger(action, v);
  };
  useScreenAction(['version', 'version', 'void'], (args) => void askFromPalette('void')(args), ['id']);
  useScreenAction(['version', 'version', 'pass'], (args) => void askFromPalette('pass')(args), ['id']);

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

/** 设置上线时间: typed as 2026-12-01 05:00 (Shanghai); the job takes the version online then. */
function ScheduleDialog({ version, onClose, onSaved }: { version: LineVersion; onClose(): void; onSaved(): void }) {
  const shown = (v: LineVersion) => (v.onlineAt ? formatDateTime(v.onlineAt, 'YYYY-MM-DD HH:mm') : '');
  const [text, setText] = useState(shown(version));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Issue 21: sent from the version opened; another's save meanwhile shows beside the typed time.
  const [seen, setSeen] = useState(version.rowVersion);
  const [theirs, setTheirs] = useState<{ text?: string }>({});
  const note = { theirs, takeTheirs: () => (theirs.text !== undefined && setText(theirs.text), setTheirs({})), keepMine: () => setTheirs({}) };
  const submit = async () => {
    const iso = parseTypedDateTime(text);
    if (!iso) return setError('请输入上线时间，如 2026-12-01 05:00');
    setBusy(true);
    try {
      await api.call(lineVersion.versionSetOnlineTime, { body: { id: version.id, onlineAt: iso, rowVersion: seen } }, { silent: true });
      toast.success(`版本${versionTitle(version)}将于 ${text} 上线`);
      onSaved();
    } catch (err) {
      const stale = staleRefusal<LineVersion>(err);
      if (stale) {
        setSeen(stale.current.rowVersion);
        setTheirs({ text: shown(stale.current) || '（未设置）' });
      }
      // Beside the field and in a toast (spec §8).
      setError(refusalShown(err, [])[''] ?? '保存失败');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={`设置上线时间 · ${version.name}`} onClose={onClose} dirty={!!text && text !== (version.onlineAt ?? '')} onSubmit={() => void submit()} footer={<ModalActions onCancel={onClose} busy={busy} />}>
      <Field
        label="上线时间"
        required
        autoFocus
        inputMode="numeric"
        placeholder="YYYY-MM-DD HH:mm"
        // The time it has is there to be replaced: what is typed takes its place.
        onFocus={(e) => e.currentTarget.select()}
        value={text}
        onChange={(e) => (setText(e.target.value), setError(null))}
        error={error ?? undefined}
        hint="上海时间；到点后由系统自动上线，原线网同时下线"
        note={<StaleNote form={note} field="text" />}
      />
    </Modal>
  );
}
