import { z } from 'zod';
import { BUSLINE, endpoint } from './endpoint';
import { fromVersion, id, optionalText, requiredText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { SESSION, grant } from './permissions';
import { travelQuery } from './bus-line';
import { onOffFlow } from '../frame/status-flow';

/**
 * Stations (spec §7, prefix /busline/api/busStation): shared by every line version of their
 * district. Coordinates are GCJ-02, as Chinese maps draw them.
 */

/** The mini-program page a station's QR opens, with the station's code as its scene. */
export const STATION_QR_PAGE = 'pages/station/index';

/** 1 in service, 0 out of service (a station out of service blocks submitting a version that uses it). */
export const STATION_STATE = onOffFlow('状态', { code: 1, label: '启用' }, { code: 0, label: '停用' });

/** Whole-China bounds for GCJ-02 coordinates: anything else is a typo or swapped lng/lat. */
const lng = z.number({ error: '经度应为数字' }).min(73, { error: '经度应在 73–136 之间' }).max(136, { error: '经度应在 73–136 之间' });
const lat = z.number({ error: '纬度应为数字' }).min(3, { error: '纬度应在 3–54 之间' }).max(54, { error: '纬度应在 3–54 之间' });

export const stationRow = z.object({
  id: z.number().int(),
  districtId: z.number().int(),
  districtName: z.string().nullable(),
  name: z.string(),
  lng: z.number(),
  lat: z.number(),
  state: STATION_STATE.schema,
  /** The short code of the station's mini-program QR (scene ≤ 32 characters); null until generated. */
  qrCode: z.string().nullable(),
  updatedDate: timestamp,
  rowVersion,
});
export type Station = z.infer<typeof stationRow>;

/** Planners edit the network: district managers and the super user (README decision 59). */
const NETWORK_EDITORS = grant({ roles: ['ROLE_ADMIN'] });

export const stationList = endpoint({
  id: 'station.list',
  title: '站点列表',
  method: 'GET',
  path: `${BUSLINE}/busStation/list`,
  query: pageQuery(['name', 'updatedDate'] as const).extend({
    name: optionalText('站点名称', 40).optional(),
    state: STATION_STATE.filter.optional(),
    /** Only stations with (true) or without (false) a QR code. */
    hasQr: z.enum(['true', 'false'], { error: '二维码筛选应为 true 或 false' }).transform((v) => v === 'true').optional(),
  }),
  response: pageOf(stationRow),
  permission: SESSION,
});

export const stationSave = endpoint({
  id: 'station.save',
  title: '保存站点',
  method: 'POST',
  path: `${BUSLINE}/busStation/save`,
  body: z.object({
    id: id('站点ID').optional(),
    name: requiredText('站点名称', 40),
    lng,
    lat,
    state: STATION_STATE.schema.default(1),
    rowVersion: fromVersion,
  }),
  response: stationRow,
  permission: NETWORK_EDITORS,
});

/**
 * 启用 / 停用 alone: the state moves from the one the operator saw (`fromStatus`), the station's
 * name and place stay as they are now, so neither the switch nor its 撤销 undoes anyone's rename.
 */
export const stationUpdateState = endpoint({
  id: 'station.updateState',
  title: '启用或停用站点',
  method: 'POST',
  path: `${BUSLINE}/busStation/update/state`,
  body: z.object({ id: id('站点ID'), state: STATION_STATE.schema, fromStatus: STATION_STATE.schema, rowVersion: fromVersion }),
  response: stationRow,
  // Who may save a station may switch it; its tags are the module's, as the save's, so the same reads refetch.
  permission: NETWORK_EDITORS,
});

export const stationQr = z.object({
  stationId: z.number().int(),
  stationName: z.string(),
  qrCode: z.string(),
  /** What the QR encodes: the mini-program page with the code as its scene. */
  content: z.string(),
});
export type StationQr = z.infer<typeof stationQr>;

export const stationQrByStation = endpoint({
  id: 'station.qrByStation',
  title: '站点二维码',
  method: 'POST',
  path: `${BUSLINE}/busStation/getStationQrCodeByStationId`,
  query: z.object({ stationId: id('站点ID') }),
  response: stationQr,
  // It writes (a station without a code gets one), so it is an editor's; anyone reads codes by page.
  permission: NETWORK_EDITORS,
});

export const stationQrInit = endpoint({
  id: 'station.qrInit',
  title: '生成缺少的站点二维码',
  method: 'POST',
  path: `${BUSLINE}/busStation/initStationQrCode`,
  response: z.object({ generated: z.number().int() }),
  permission: NETWORK_EDITORS,
});

export const stationQrSurplus = endpoint({
  id: 'station.qrSurplus',
  title: '未生成二维码的站点数',
  method: 'GET',
  path: `${BUSLINE}/busStation/getStationQrCodeSurplus`,
  response: z.object({ surplus: z.number().int(), total: z.number().int() }),
  permission: SESSION,
});

export const stationQrPage = endpoint({
  id: 'stationQr.page',
  title: '站点二维码列表',
  method: 'GET',
  path: `${BUSLINE}/stationQrCode/page`,
  query: pageQuery(['name'] as const).extend({ name: optionalText('站点名称', 40).optional() }),
  response: pageOf(stationQr),
  permission: SESSION,
});

/** Which station stays (`stationId`) and which is merged into it and removed (`mergeStationId`). */
const mergeQuery = z
  .object({ stationId: id('保留的站点'), mergeStationId: id('被合并的站点') })
  .refine((q) => q.stationId !== q.mergeStationId, { error: '不能把站点合并到它自己', path: ['mergeStationId'] });

/** A line (of an editable version) whose stops change with a merge. */
export const mergeAffected = z.object({ versionId: z.number().int(), versionName: z.string(), lineId: z.number().int(), lineName: z.string(), direction: z.number().int(), stops: z.number().int() });

export const stationMergePreview = endpoint({
  id: 'station.mergePreview',
  title: '合并站点预览',
  method: 'GET',
  path: `${BUSLINE}/busStation/mergePreview`,
  query: mergeQuery,
  response: z.object({
    keep: stationRow,
    merge: stationRow,
    affected: z.array(mergeAffected),
    /** Versions no longer editable (submitted, passed, online, offline) that use the merged station: they block the merge. */
    blockedBy: z.array(z.object({ versionId: z.number().int(), versionName: z.string(), status: z.number().int() })),
  }),
  permission: SESSION,
});

export const stationMerge = endpoint({
  id: 'station.merge',
  title: '合并站点',
  method: 'POST',
  path: `${BUSLINE}/busStation/merge`,
  query: mergeQuery,
  response: z.object({ keep: stationRow, repointed: z.number().int(), lines: z.number().int() }),
  permission: NETWORK_EDITORS,
  timeoutMs: 30_000,
});

/** The stations a planner can still add to one direction of a line: the line's district, not yet on it. */
export const stationListExcludeLine = endpoint({
  id: 'station.listExcludeLine',
  title: '可加入线路的站点',
  method: 'GET',
  path: `${BUSLINE}/busStation/listWithExcludeLineStation`,
  query: z.object({ lineId: id('线路ID'), direction: travelQuery, name: optionalText('站点名称', 40).optional() }),
  response: z.array(stationRow),
  permission: SESSION,
});

/** The stations on a line (both directions, or one), in line order, each with where it stands. */
export const stationListIncludeLine = endpoint({
  id: 'station.listIncludeLine',
  title: '线路上的站点',
  method: 'GET',
  path: `${BUSLINE}/busStation/listWithInCludeLineStation`,
  query: z.object({ lineId: id('线路ID'), direction: travelQuery.optional() }),
  response: z.array(stationRow.extend({ direction: z.number().int(), seq: z.number().int() })),
  permission: SESSION,
});

/** The QR codes as a spreadsheet (streamed xlsx): station, code and what the QR encodes. */
export const stationQrExport = endpoint({
  id: 'stationQr.export',
  title: '导出站点二维码',
  method: 'GET',
  path: `${BUSLINE}/stationQrCode/export/excel`,
  query: z.object({ name: optionalText('站点名称', 40).optional() }),
  response: z.instanceof(Blob),
  permission: SESSION,
  file: true,
  timeoutMs: 60_000,
});
