import type { Station } from '../../../shared/api';

// How two stations of one name are told apart in words: where each is, and its QR code. The merge
// dialog, the palette's 合并到… and 合并站点's choices say it the same way.

const M_PER_DEG_LAT = 111_320;

/** Metres between two stations (flat, as a district's distances are). */
export const metres = (a: Pick<Station, 'lng' | 'lat'>, b: Pick<Station, 'lng' | 'lat'>) => {
  const k = Math.cos((a.lat * Math.PI) / 180) * M_PER_DEG_LAT;
  return Math.hypot((a.lng - b.lng) * k, (a.lat - b.lat) * M_PER_DEG_LAT);
};

/** lng,lat to 6 decimals (about 0.1 m): the palette's compact form. */
export const place = (s: Pick<Station, 'lng' | 'lat'>) => `${s.lng.toFixed(6)},${s.lat.toFixed(6)}`;
/** The same with a space, as the dialog and the toast write it. */
export const placeSpaced = (s: Station) => `${s.lng.toFixed(6)}, ${s.lat.toFixed(6)}`;

export const qrOf = (s: Station) => (s.qrCode ? `二维码 ${s.qrCode}` : '无二维码');

/** District, place, QR code and a stop out of service: what differs between two of one name. */
export const stationDetail = (s: Station) => [s.districtName ?? '未知区域', place(s), qrOf(s), s.state ? null : '停用'].filter(Boolean).join(' · ');

/**
 * Which station was kept, told so that two stations of one name are still told apart: its place
 * (and QR code) beside its name, as the choice showed them.
 */
export function mergedMessage(keep: Station, merged: Station, lines: number): string {
  return `已合并站点：保留「${keep.name}」（${keep.districtName ?? '未知区域'}，${placeSpaced(keep)}${keep.qrCode ? `，二维码 ${keep.qrCode}` : ''}），删除「${merged.name}」（${placeSpaced(merged)}），改动 ${lines} 条线路`;
}
