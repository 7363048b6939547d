import { useMemo, useState } from 'react';
import { type Station, station } from '../../../../shared/api';
import { metresBetween } from '../../../../shared/domain/geo';
import { Button } from '../../../components/button';
import { LazyMap } from '../../../components/map/lazy-map';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';

/**
 * The stations of the list's page on the map, selected together with the table's current row. A
 * planner drags a station (or moves it with Shift+arrows) and confirms the new place before it is
 * saved: a slip of the mouse never moves a stop by itself.
 */
export function StationMapPanel({ rows, picked, onPick, canMove, onMoved }: { rows: readonly Station[]; picked: number | null; onPick(id: number): void; canMove: boolean; onMoved(): void }) {
  const [moving, setMoving] = useState<{ id: number; lng: number; lat: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const points = useMemo(
    () => rows.map((s) => (moving?.id === s.id ? { id: s.id, name: s.name, lng: moving.lng, lat: moving.lat } : { id: s.id, name: s.name, lng: s.lng, lat: s.lat, muted: s.state !== 1 })),
    [rows, moving],
  );
  const row = moving ? rows.find((r) => r.id === moving.id) : undefined;
  const save = async () => {
    if (!moving || !row) return;
    setBusy(true);
    try {
      await api.call(station.stationSave, { body: { id: row.id, name: row.name, lng: moving.lng, lat: moving.lat, state: row.state } });
      toast.success(`已移动站点「${row.name}」`);
      setMoving(null);
      onMoved();
    } catch {
      // In the toast.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2 xl:sticky xl:top-2 xl:w-[42%]">
      {moving && row && (
        <div role="status" className="flex flex-wrap items-center gap-2 rounded bg-orange-50 px-3 py-2 text-sm text-orange-900">
          将「{row.name}」移到 {moving.lng.toFixed(6)}, {moving.lat.toFixed(6)}（{Math.round(metresBetween([row.lng, row.lat], [moving.lng, moving.lat]))} 米）
          <Button variant="primary" className="h-7" disabled={busy} onClick={() => void save()}>
            保存位置
          </Button>
          <Button className="h-7" onClick={() => setMoving(null)}>
            取消
          </Button>
        </div>
      )}
      <LazyMap label="本页站点" className="h-[50vh] xl:h-[70vh]" points={points} selectedId={picked} onSelect={onPick} onMovePoint={canMove ? (id, lng, lat) => setMoving({ id, lng, lat }) : undefined} />
    </div>
  );
}
