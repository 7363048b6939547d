import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type BusLineInfo, busLine } from '../../../../shared/api';
import { LINE_STATE, directionLabel, travelledBy } from '../../../../shared/api/bus-line';
import { VERSION_STATE, type VersionStatus } from '../../../../shared/api/line-version';
import { fenToYuan } from '../../../../shared/domain/money';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Modal, ModalActions } from '../../../components/modal';
import { ScreenSection } from '../../../components/screen-section';
import { DetailList } from '../../../components/resource/detail-list';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { useDistrictName } from '../../../lib/district-name';
import { useAllowed } from '../../../lib/permission';
import { useScreenLocation } from '../../../lib/screen-context';
import { idParam, useLineInfo } from '../api';
import { DirectionStops } from '../components/direction-stops';
import { LineFields, useLineForm } from '../components/line-form';

/**
 * 线路详情 (BusLine, `?id=`): a line of a version with both directions' stops side by side, edited
 * in place when its version is open; the path, sub-lines, 停运 and 删除 from here.
 */
export function LinePage() {
  const { search } = useScreenLocation();
  const id = idParam(search);
  const info = useLineInfo(id);
  if (!id) return <Missing text="没有指定线路。" />;
  if (info.error) return <Missing text="线路不存在，或不属于当前区域。" />;
  if (!info.data) return <ScreenSection title="线路详情"><p className="text-sm text-gray-600">加载中…</p></ScreenSection>;
  return <LineView line={info.data} reload={() => void info.mutate()} />;
}

function Missing({ text }: { text: string }) {
  return (
    <ScreenSection title="线路详情">
      <p className="text-sm text-gray-700">
        {text}
        <Link href={pagePath('bus', 'list')} className="ml-2 text-[var(--theme-strong)] underline">
          返回线路列表
        </Link>
      </p>
    </ScreenSection>
  );
}

function LineView({ line, reload }: { line: BusLineInfo; reload(): void }) {
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const canDelete = useAllowed(busLine.busLineDelete.permission);
  const district = useDistrictName(line.districtId) ?? '本区域';
  const status = VERSION_STATE.label(line.version.status as VersionStatus);
  const toggle = async () => {
    setBusy(true);
    try {
      await api.call(busLine.busLineDisable, { body: { id: line.id, state: line.state ? 0 : 1, rowVersion: line.rowVersion } });
      toast.success(`线路「${line.name}」已${line.state ? '停运' : '恢复运营'}`);
      reload();
    } catch {
      // In the toast.
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api.call(busLine.busLineDelete, { body: { id: line.id } });
      toast.success(`已删除线路「${line.name}」（${district} · 版本「${line.version.name}」）`);
      navigate(pagePath('bus', 'list'));
    } catch {
      setBusy(false);
    }
  };
  return (
    <ScreenSection title={`线路详情 · ${line.name}`}>
      <div className="mb-4 flex flex-wrap items-start gap-x-6 gap-y-2 rounded border border-gray-200 bg-white p-3 text-sm">
        <DetailList
          layout="summary"
          items={[
            { term: '编号', value: line.code },
            { term: '方向', value: `${directionLabel(line.direction)}${line.isLoop ? ' · 环线' : ''}` },
            { term: '运营时间', value: line.firstBus || line.lastBus ? `${line.firstBus ?? '—'} – ${line.lastBus ?? '—'}` : '—' },
            { term: '票价', value: `${fenToYuan(line.fare)} 元` },
            { term: '状态', value: LINE_STATE.label(line.state) },
            { term: '版本', value: `${line.version.name}（${status}）` },
            { term: '子线路', value: `${line.subLines} 条` },
          ]}
        />
        <div className="flex flex-wrap gap-1">
          {line.editable && (
            <Button className="h-8" onClick={() => setEditing(true)}>
              编辑线路
            </Button>
          )}
          <Button className="h-8" onClick={() => navigate(pagePath('bus', 'line-path', { query: { id: line.id } }))}>
            线路轨迹
          </Button>
          <Button className="h-8" onClick={() => navigate(pagePath('bus', 'sub-list', { query: { lineId: line.id } }))}>
            子线路
          </Button>
          {line.editable && (
            <Button className="h-8" disabled={busy} onClick={() => void toggle()}>
              {line.state ? '停运' : '恢复运营'}
            </Button>
          )}
          {line.editable && canDelete && (
            <Button variant="danger" className="h-8" disabled={busy} onClick={() => setDeleting(true)}>
              删除
            </Button>
          )}
        </div>
      </div>
      {!line.editable && (
        <p className="mb-4 rounded border border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-700">
          只读：版本「{line.version.name}」{status}。只有开放编辑的版本可以修改{line.version.status === 0 ? '，且需要线网编辑权限' : ''}。
        </p>
      )}
      <div className="flex flex-col gap-4 xl:flex-row">
        {travelledBy(line.direction).map((d) => (
          <DirectionStops key={`${line.id}-${d}`} line={line} direction={d} onSaved={reload} />
        ))}
      </div>
      {editing && <EditLineDialog line={line} onClose={() => setEditing(false)} onSaved={() => (setEditing(false), reload())} />}
      <ConfirmDialog open={deleting} irreversible danger title={`删除线路「${line.name}」（${district}）`} confirmLabel="删除" busy={busy} onConfirm={() => void remove()} onClose={() => setDeleting(false)}>
        确定删除 <b>{district}</b> 版本「{line.version.name}」中的线路 <b>「{line.name}」</b>吗？线路的站点、轨迹和 {line.subLines} 条子线路会一并删除；其他版本不受影响。
      </ConfirmDialog>
    </ScreenSection>
  );
}

function EditLineDialog({ line, onClose, onSaved }: { line: BusLineInfo; onClose(): void; onSaved(): void }) {
  const form = useLineForm(line, onSaved);
  return (
    <Modal open title={`编辑线路 · ${line.name}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} />}>
      <LineFields form={form} changingDirectionDrops={line.direction === -1} />
    </Modal>
  );
}
