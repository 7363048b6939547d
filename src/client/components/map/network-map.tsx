import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { textBlock } from '../../lib/text-node';

/**
 * The network drawn as vector layers over coordinates (GCJ-02, as Chinese map tiles are): works
 * with no internet; tiles appear under it only when the operator configured MAP_TILE_URL. Loaded
 * lazily (`lazy-map.tsx`), so Leaflet reaches only the screens that draw a map.
 */

export type LngLat = [number, number];

export interface MapPoint {
  id: number;
  name: string;
  lng: number;
  lat: number;
  /** Out of service or not part of what is edited: drawn grey. */
  muted?: boolean;
}

export interface MapPath {
  key: string;
  points: readonly LngLat[];
  colour: string;
  dashed?: boolean;
}

export interface PathEditing {
  points: readonly LngLat[];
  onChange(points: LngLat[]): void;
  selected: number;
  onSelect(index: number): void;
}

export interface NetworkMapProps {
  label: string;
  points: readonly MapPoint[];
  paths?: readonly MapPath[];
  selectedId?: number | null;
  onSelect?(id: number): void;
  /** Stations can be dragged (or moved with Shift+arrows) to new coordinates. */
  onMovePoint?(id: number, lng: number, lat: number): void;
  editPath?: PathEditing;
  centre?: { lat: number; lon: number } | null;
  tileUrl?: string | null;
  className?: string;
}

const THEME = '#126dc2';
/** One Shift+arrow step: about 10 m at city latitudes. */
const STEP_DEG = 0.0001;

/** The keys of the map, shown under it: every pointer action has one. */
export const MAP_KEYS = [
  ['方向键', '平移'],
  ['+ / -', '缩放'],
  ['[ / ]', '上一个 / 下一个站点'],
  ['Shift+方向键', '移动所选站点或轨迹点'],
  ['A', '在地图中心添加轨迹点'],
  [', / .', '上一个 / 下一个轨迹点'],
  ['Delete', '删除所选轨迹点'],
] as const;

export function NetworkMap(props: NetworkMapProps) {
  const host = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layers = useRef<L.LayerGroup | null>(null);
  const fitted = useRef(false);
  const interacted = useRef(false);
  const dragEnded = useRef(false);
  // Handlers read the latest props; the map is built once.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const el = host.current!;
    const m = L.map(el, { zoomControl: false, attributionControl: !!props.tileUrl, keyboard: true, preferCanvas: false });
    L.control.zoom({ zoomInTitle: '放大', zoomOutTitle: '缩小' }).addTo(m);
    const c = props.centre ?? { lat: 31.2304, lon: 121.4737 };
    m.setView([c.lat, c.lon], 13);
    if (props.tileUrl) L.tileLayer(props.tileUrl, { maxZoom: 19 }).addTo(m);
    layers.current = L.layerGroup().addTo(m);
    map.current = m;
    // The host gets its final size after layout (and when the window or sidebar changes): Leaflet
    // must re-measure, and the first fit waits for a real size.
    // Until the user pans or zooms, every new size fits the drawing again.
    const touched = () => (interacted.current = true);
    for (const type of ['pointerdown', 'wheel', 'keydown'] as const) el.addEventListener(type, touched, { passive: true });
    const resized = new ResizeObserver(() => {
      m.invalidateSize();
      if (!interacted.current) fit();
    });
    resized.observe(el);
    m.on('click', (e: L.LeafletMouseEvent) => {
      const edit = latest.current.editPath;
      // The click that ends a drag is not a new point.
      if (edit && !dragEnded.current) insertVertex(edit, [round(e.latlng.lng), round(e.latlng.lat)]);
      dragEnded.current = false;
    });
    // Capture runs before Leaflet's own key handler on the same element, so Shift+arrows move a point instead of panning.
    const keys = (e: KeyboardEvent) => onKey(e, m);
    el.addEventListener('keydown', keys, true);
    return () => {
      resized.disconnect();
      el.removeEventListener('keydown', keys, true);
      for (const type of ['pointerdown', 'wheel', 'keydown'] as const) el.removeEventListener(type, touched);
      m.remove();
      map.current = null;
    };
    // Built once; tiles and centre are fixed for a page's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function onKey(e: KeyboardEvent, m: L.Map) {
    const p = latest.current;
    const ids = p.points.map((x) => x.id);
    const at = p.selectedId == null ? -1 : ids.indexOf(p.selectedId);
    const edit = p.editPath;
    const arrows: Record<string, LngLat> = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const dir = arrows[e.key];
    if (e.key === ']' || e.key === '[') {
      const next = ids[(at + (e.key === ']' ? 1 : -1) + ids.length) % ids.length];
      if (next !== undefined) {
        p.onSelect?.(next);
        const pt = p.points.find((x) => x.id === next);
        if (pt) m.panTo([pt.lat, pt.lng]);
      }
    } else if (dir && e.shiftKey && edit && edit.selected >= 0) {
      const q = edit.points[edit.selected];
      if (q) edit.onChange(edit.points.map((x, i) => (i === edit.selected ? [round(q[0] + dir[0] * STEP_DEG), round(q[1] + dir[1] * STEP_DEG)] : x)) as LngLat[]);
    } else if (dir && e.shiftKey && p.onMovePoint && at >= 0) {
      const pt = p.points[at]!;
      p.onMovePoint(pt.id, round(pt.lng + dir[0] * STEP_DEG), round(pt.lat + dir[1] * STEP_DEG));
    } else if ((e.key === 'a' || e.key === 'A') && edit) {
      const c = m.getCenter();
      insertVertex(edit, [round(c.lng), round(c.lat)]);
    } else if ((e.key === ',' || e.key === '.') && edit && edit.points.length) {
      const i = Math.max(0, Math.min(edit.points.length - 1, edit.selected + (e.key === '.' ? 1 : -1)));
      edit.onSelect(i);
      const q = edit.points[i]!;
      m.panTo([q[1], q[0]]);
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && edit && edit.selected >= 0) {
      edit.onChange(edit.points.filter((_, i) => i !== edit.selected) as LngLat[]);
      edit.onSelect(Math.min(edit.selected, edit.points.length - 2));
    } else return;
    e.preventDefault();
    e.stopImmediatePropagation();
  }

  // Redraw on every change: a line has tens of stops and one path, far below what needs diffing.
  useEffect(() => {
    const m = map.current;
    const g = layers.current;
    if (!m || !g) return;
    g.clearLayers();
    for (const path of props.paths ?? []) {
      if (path.points.length >= 2) L.polyline(path.points.map(([lng, lat]) => [lat, lng] as L.LatLngTuple), { color: path.colour, weight: 4, opacity: 0.75, dashArray: path.dashed ? '6 6' : undefined, interactive: false }).addTo(g);
    }
    const edit = props.editPath;
    if (edit) {
      const line = L.polyline(edit.points.map(([lng, lat]) => [lat, lng] as L.LatLngTuple), { color: THEME, weight: 4, interactive: false }).addTo(g);
      void line;
      edit.points.forEach(([lng, lat], i) => {
        const v = L.circleMarker([lat, lng], { radius: i === edit.selected ? 7 : 5, color: '#fff', weight: 2, fillColor: i === edit.selected ? '#d4380d' : THEME, fillOpacity: 1, bubblingMouseEvents: false }).addTo(g);
        v.bindTooltip(textBlock(`轨迹点 ${i + 1}`), { direction: 'top' });
        offTabOrder(v);
        v.on('mousedown', () => {
          edit.onSelect(i);
          dragVertex(
            m,
            (ll) => {
              const cur = latest.current.editPath;
              if (cur) cur.onChange(cur.points.map((x, k) => (k === i ? ll : x)) as LngLat[]);
            },
            false,
            endDrag,
          );
        });
      });
    }
    for (const pt of props.points) {
      const selected = pt.id === props.selectedId;
      const marker = L.circleMarker([pt.lat, pt.lng], {
        radius: selected ? 8 : 5,
        color: selected ? '#fff' : pt.muted ? '#9ca3af' : '#1f2937',
        weight: selected ? 3 : 1.5,
        fillColor: selected ? '#d4380d' : pt.muted ? '#e5e7eb' : '#ffffff',
        fillOpacity: 1,
        bubblingMouseEvents: false,
      }).addTo(g);
      // An element, not the name: Leaflet writes a string tooltip as HTML, and names are typed by users.
      marker.bindTooltip(textBlock(pt.name), { direction: 'top', permanent: selected, className: 'text-xs' });
      offTabOrder(marker);
      marker.on('click', () => latest.current.onSelect?.(pt.id));
      if (props.onMovePoint)
        marker.on('mousedown', () => {
          latest.current.onSelect?.(pt.id);
          dragVertex(m, ([lng, lat]) => latest.current.onMovePoint?.(pt.id, lng, lat), true, endDrag);
        });
    }
    if (!fitted.current) fit();
  }, [props.points, props.paths, props.editPath, props.selectedId, props.onMovePoint]);

  /** Shows everything drawn, once there is something and the map has a size. */
  function fit() {
    const m = map.current;
    const p = latest.current;
    if (!m || !host.current?.clientHeight) return;
    const all: L.LatLngTuple[] = [
      ...p.points.map((x) => [x.lat, x.lng] as L.LatLngTuple),
      ...(p.paths ?? []).flatMap((x) => x.points.map(([lng, lat]) => [lat, lng] as L.LatLngTuple)),
      ...(p.editPath?.points ?? []).map(([lng, lat]) => [lat, lng] as L.LatLngTuple),
    ];
    if (!all.length) return;
    m.fitBounds(L.latLngBounds(all), { padding: [24, 24], maxZoom: 16 });
    fitted.current = true;
  }

  // The list selected something: bring it into view.
  useEffect(() => {
    const pt = props.points.find((p) => p.id === props.selectedId);
    if (pt && map.current && !map.current.getBounds().contains([pt.lat, pt.lng])) map.current.panTo([pt.lat, pt.lng]);
  }, [props.selectedId, props.points]);

  return (
    <div className={`flex flex-col gap-1 ${props.className ?? ''}`}>
      <div ref={host} role="application" aria-label={`${props.label}（地图，可用键盘操作）`} className="h-full min-h-72 w-full rounded border border-gray-200 !bg-[#f3f1ec] !font-sans focus-visible:outline-2 focus-visible:outline-[var(--theme)]" />
      <p role="status" className="sr-only">
        {selectedName(props)}
      </p>
      <p className="text-xs text-gray-600">
        {MAP_KEYS.filter(([, what]) => (props.editPath ? true : !what.includes('轨迹点'))).map(([key, what]) => (
          <span key={key} className="mr-3 inline-block">
            <kbd className="rounded bg-gray-100 px-1">{key}</kbd> {what}
          </span>
        ))}
        {props.editPath && <span className="inline-block">点击地图添加轨迹点，拖动轨迹点移动</span>}
      </p>
    </div>
  );

  /** The click that follows a drag's release comes in the same turn; after it, clicks add points again. */
  function endDrag() {
    dragEnded.current = true;
    setTimeout(() => (dragEnded.current = false), 0);
  }

  function insertVertex(edit: PathEditing, p: LngLat) {
    const at = edit.selected >= 0 ? edit.selected + 1 : edit.points.length;
    const next = [...edit.points];
    next.splice(at, 0, p);
    edit.onChange(next);
    edit.onSelect(at);
  }
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The map is one Tab stop (and its zoom buttons): a marker is reached by `[` / `]` from there, and
 * the one chosen is said in words below the map. Chromium would otherwise stop Tab on every
 * clickable SVG shape, tens of unnamed stops between the table and what follows it.
 */
function offTabOrder(layer: L.Path) {
  const el = layer.getElement();
  if (!el) return;
  el.setAttribute('tabindex', '-1');
  el.setAttribute('aria-hidden', 'true');
}

/** The station chosen on the map, in words: the markers themselves are out of the Tab order. */
function selectedName(p: NetworkMapProps): string {
  const pt = p.points.find((x) => x.id === p.selectedId);
  return pt ? `已选站点：${pt.name}` : '';
}

/**
 * Follows the pointer until it is released (anywhere: the release may happen off the map); the map
 * does not pan meanwhile. `onEnd` runs after a real move, so the click that follows can be ignored.
 */
function dragVertex(m: L.Map, onMove: (p: LngLat) => void, onlyOnRelease = false, onEnd?: () => void) {
  m.dragging.disable();
  let last: LngLat | null = null;
  const move = (e: L.LeafletMouseEvent) => {
    last = [round(e.latlng.lng), round(e.latlng.lat)];
    if (!onlyOnRelease) onMove(last);
  };
  const up = () => {
    m.off('mousemove', move);
    document.removeEventListener('mouseup', up, true);
    m.dragging.enable();
    if (last) {
      if (onlyOnRelease) onMove(last);
      onEnd?.();
    }
  };
  m.on('mousemove', move);
  document.addEventListener('mouseup', up, true);
}
