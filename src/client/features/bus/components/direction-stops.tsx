import { useMemo, useRef, useState } from 'react';
import { type BusLineInfo, type LineStop, busLine } from '../../../../shared/api';
import { directionLabel } from '../../../../shared/api/bus-line';
import { Button } from '../../../components/button';
import { type OrderedItem, OrderedListEditor } from '../../../components/ordered-list-editor';
import { PinyinPicker, type PickerItem } from '../../../components/pinyin-picker';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { saveKey } from '../../../lib/use-save-key';
import { useDraft } from '../../../lib/use-draft';
import { useStationsOffLine } from '../api';

interface Draft extends OrderedItem {
  stationId: number;
  state: number;
}

let serial = 0;
const idsOf = (rows: readonly Pick<Draft, 'stationId'>[]) => rows.map((r) => r.stationId).join(',');
const draftOf = (s: Pick<LineStop, 'stationId' | 'name' | 'state'>): Draft => ({ key: `d${serial++}`, stationId: s.stationId, label: s.name, state: s.state });

/** What the submit check will say about a row, shown beside it while editing. */
function withBadges(rows: readonly Draft[]): Draft[] {
  return rows.map((r, i) => ({
    ...r,
    badges: [
      ...(r.state !== 1 ? [{ text: '停用', tone: 'warn' as const }] : []),
      ...(i > 0 && rows[i - 1]!.stationId === r.stationId ? [{ text: '与上一站相同', tone: 'warn' as const }] : []),
    ],
  }));
}

/**
 * One direction's stops: the saved order, edited as a draft (add with the pinyin picker after the
 * selected stop, Alt+↑/↓ to move, Delete to remove, drag), saved whole with Ctrl+S or the button.
 */
export function DirectionStops({ line, direction, onSaved }: { line: BusLineInfo; direction: 0 | 1; onSaved(): void }) {
  const saved = direction === 0 ? line.stops.up : line.stops.down;
  const other = direction === 0 ? line.stops.down : line.stops.up;
  const { draft, setDraft, reset, dirty } = useDraft<Draft[]>(useMemo(() => saved.map(draftOf), [saved]), idsOf);
  const [selected, setSelected] = useState(saved.length ? 0 : -1);
  const [busy, setBusy] = useState(false);
  const pickerRef = useRef<HTMLInputElement>(null);

  const off = useStationsOffLine(line.editable ? line.id : null, direction);
  const choices = useMemo<PickerItem[]>(() => {
    const seen = new Map<number, PickerItem>();
    // A place has a stop on each side of the street under one name: the coordinates tell them apart.
    const where = (s: { lng: number; lat: number }) => `${s.lng.toFixed(4)}, ${s.lat.toFixed(4)}`;
    for (const s of off.data ?? []) seen.set(s.id, { id: s.id, label: s.name, hint: [s.state ? null : '停用', where(s)].filter(Boolean).join(' · ') });
    for (const s of saved) seen.set(s.stationId, { id: s.stationId, label: s.name, hint: [s.state ? null : '停用', '已在本方向', where(s)].filter(Boolean).join(' · ') });
    return [...seen.values()];
  }, [off.data, saved]);

  const label = `${directionLabel(direction)}站点`;
  const add = (item: PickerItem) => {
    const at = selected < 0 ? draft.length : selected + 1;
    const next = [...draft];
    next.splice(at, 0, draftOf({ stationId: item.id, name: item.label, state: item.hint?.startsWith('停用') ? 0 : 1 }));
    setDraft(next);
    setSelected(at);
  };
  const save = async () => {
    if (busy || !dirty) return;
    setBusy(true);
    try {
      await api.call(busLine.busLineStationSave, { body: { lineId: line.id, direction, stationIds: draft.map((d) => d.stationId) } });
      toast.success(`已保存${line.name}${label}（${draft.length} 站）`);
      onSaved();
    } catch {
      // The refusal is in the toast; the draft stays for another try.
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = saveKey(() => line.editable && void save());
  const loopOpen = line.isLoop && draft.length >= 2 && draft[0]!.stationId !== draft.at(-1)!.stationId;
  const rows = withBadges(draft);
  return (
    <section aria-label={label} onKeyDown={onKeyDown} className="flex min-w-0 flex-1 flex-col gap-3 rounded border border-gray-200 p-3">
      <header className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-medium text-gray-900">{label}</h2>
        <span className="text-sm text-gray-600">{draft.length} 站</span>
        {dirty && <span className="rounded bg-orange-50 px-1.5 py-0.5 text-xs text-orange-700">未保存</span>}
        {line.editable && (
          <span className="ml-auto flex gap-1">
            {direction === 1 && other.length > 0 && (
              <Button className="h-8" onClick={() => setDraft([...other].reverse().map(draftOf))} title="下行站点常在街道另一侧，填充后请逐站核对">
                按上行反向填充
              </Button>
            )}
            <Button className="h-8" disabled={!dirty || busy} onClick={() => (reset(), setSelected(saved.length ? 0 : -1))}>
              撤销修改
            </Button>
            <Button variant="primary" className="h-8" hotkey="Ctrl+S" disabled={!dirty || busy} onClick={() => void save()}>
              保存{label}
            </Button>
          </span>
        )}
      </header>
      {line.editable && (
        <PinyinPicker
          ref={pickerRef}
          label={`添加${label}`}
          items={choices}
          onPick={add}
          placeholder="站点名称、拼音或首字母，如 rmgc"
          help={selected >= 0 ? `Enter 添加到第 ${selected + 1} 站「${draft[selected]?.label ?? ''}」之后` : 'Enter 添加到末尾'}
        />
      )}
      {loopOpen && (
        <p className="flex flex-wrap items-center gap-2 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">
          环线的末站应回到首站「{draft[0]!.label}」
          <Button variant="text" onClick={() => (setDraft([...draft, draftOf({ stationId: draft[0]!.stationId, name: draft[0]!.label, state: draft[0]!.state })]), setSelected(draft.length))}>
            添加首站到末尾
          </Button>
        </p>
      )}
      <OrderedListEditor
        label={`${line.name}${label}`}
        items={rows}
        onChange={line.editable ? setDraft : undefined}
        selected={selected}
        onSelect={setSelected}
        empty={line.editable ? '还没有站点：在上方输入站点名称添加' : '没有站点'}
      />
    </section>
  );
}
