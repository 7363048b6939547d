import { Suspense, lazy } from 'react';
import { KEYS, readJson } from '../../lib/storage';
import type { NetworkMapProps } from './network-map';

const NetworkMap = lazy(() => import('./network-map').then((m) => ({ default: m.NetworkMap })));

/** The city centre and tile template the login stored (config/getLocation). */
function mapSettings(): { centre: { lat: number; lon: number } | null; tileUrl: string | null } {
  const loc = readJson<{ lat?: number; lon?: number; tileUrl?: string | null }>(KEYS.location);
  return { centre: loc && typeof loc.lat === 'number' && typeof loc.lon === 'number' ? { lat: loc.lat, lon: loc.lon } : null, tileUrl: loc?.tileUrl ?? null };
}

/** The network map, fetched with Leaflet the first time a screen shows one. */
export function LazyMap(props: Omit<NetworkMapProps, 'centre' | 'tileUrl'>) {
  return (
    <Suspense fallback={<div className={`flex min-h-72 items-center justify-center rounded border border-gray-200 bg-gray-50 text-sm text-gray-600 ${props.className ?? ''}`}>地图加载中…</div>}>
      <NetworkMap {...props} {...mapSettings()} />
    </Suspense>
  );
}

export type { LngLat, MapPath, MapPoint, PathEditing } from './network-map';
