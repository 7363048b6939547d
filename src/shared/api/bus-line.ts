import { z } from 'zod';
import { BUSLINE, endpoint } from './endpoint';
import { fromVersion, id, optionalText, requiredText, rowVersion, timestamp, wholeNumber } from './fields';
import { pageOf, pageQuery } from './paging';
import { SESSION, grant, grantIn } from './permissions';
import { onOffFlow } from '../frame/status-flow';

/**
 * Lines of a version (spec §7, prefix /busline/api): busLine, busLineRoute, busLineStation,
 * busLineDetail (sub-lines) and busLineDetailStation. Reads are for every signed-in account of the
 * district; writes are the planners' (ROLE_ADMIN) and only ever touch the open version (status 0).
 */

/** Spec §3: -1 both ways, 0 up, 1 down. A line's stops and paths are kept per travelled direction (0, 1). */
export const LINE_DIRECTIONS = { '-1': '双向', '0': '上行', '1': '下行' } as const;
export const TRAVEL_DIRECTIONS = [0, 1] as const;
export type TravelDirection = (typeof TRAVEL_DIRECTIONS)[number];
export const directionLabel = (d: number) => LINE_DIRECTIONS[String(d) as keyof typeof LINE_DIRECTIONS] ?? String(d);
/** The directions a line of `direction` travels: both for -1, else itself. */
export const travelledBy = (direction: number): TravelDirection[] => (direction === -1 ? [0, 1] : direction === 1 ? [1] : [0]);

/** 1 running, 0 disabled (busLine/disable); sub-lines say the same. */
export const LINE_STATE = onOffFlow('状态', { code: 1, label: '运营' }, { code: 0, label: '停运' });

/** Longest line a planner can enter; real lines stop well before. */
export const MAX_LINE_STOPS = 120;
export const MAX_PATH_POINTS = 5_000;
/** How far a stop may be from its direction's path before submitting is blocked. */
export const MAX_STOP_OFFSET_M = 300;

const NETWORK_EDITORS = grant({ roles: ['ROLE_ADMIN'] });

/** The line module's button permissions (spec §6), declared once with their labels. */
export const buttons = { BUS_LINE_DEL: '删除线路', BUS_LINE_DETAIL_DEL: '删除线路详情' } as const;
const can = grantIn(buttons);

const lineDirection = z.union([z.literal(-1), z.literal(0), z.literal(1)], { error: '方向应为 -1（双向）、0（上行）或 1（下行）' });
const travel = z.union([z.literal(0), z.literal(1)], { error: '方向应为 0（上行）或 1（下行）' });
/** Query strings carry numbers as text. */
export const travelQuery = z.enum(['0', '1'], { error: '方向应为 0（上行）或 1（下行）' }).transform((v) => Number(v) as TravelDirection);
const clock = (label: string) =>
  z
    .string({ error: `${label}应为 HH:mm` })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: `${label}应为 HH:mm（如 05:30）` });

const versionRef = z.object({ id: z.number().int(), name: z.string(), status: z.number().int() });

export const busLineRow = z.object({
  id: z.number().int(),
  versionId: z.number().int(),
  districtId: z.number().int(),
  code: z.string(),
  name: z.string(),
  direction: lineDirection,
  isLoop: z.boolean(),
  state: LINE_STATE.schema,
  firstBus: z.string().nullable(),
  lastBus: z.string().nullable(),
  /** Fare in fen (spec §5: shown divided by 100). */
  fare: z.number().int(),
  upStops: z.number().int(),
  downStops: z.number().int(),
  /** 「起点 — 终点」 of the first travelled direction, null without stops. */
  terminals: z.string().nullable(),
  subLines: z.number().int(),
  updatedDate: timestamp,
  rowVersion,
});
export type BusLine = z.infer<typeof busLineRow>;

/** One stop of a direction, in order. `id` is the line-station row. */
export const lineStop = z.object({
  id: z.number().int(),
  seq: z.number().int(),
  stationId: z.number().int(),
  name: z.string(),
  lng: z.number(),
  lat: z.number(),
  state: z.number().int(),
});
export type LineStop = z.infer<typeof lineStop>;

const inChina = (lo: number, hi: number) => z.number({ error: '轨迹点应为 [经度, 纬度]' }).min(lo, { error: '轨迹点应在中国范围内（经度 73–136，纬度 3–54）' }).max(hi, { error: '轨迹点应在中国范围内（经度 73–136，纬度 3–54）' });
const point = z.tuple([inChina(73, 136), inChina(3, 54)], { error: '轨迹点应为 [经度, 纬度]' });
export const lineRoute = z.object({ id: z.number().int(), lineId: z.number().int(), direction: travel, points: z.array(z.tuple([z.number(), z.number()])) });
export type LineRoute = z.infer<typeof lineRoute>;

export const busLineInfo = busLineRow.extend({
  version: versionRef,
  /** Whether the console may edit it: its version is open and the caller is a planner. */
  editable: z.boolean(),
  stops: z.object({ up: z.array(lineStop), down: z.array(lineStop) }),
  routes: z.array(lineRoute),
});
export type BusLineInfo = z.infer<typeof busLineInfo>;

export const busLineList = endpoint({
  id: 'busLine.list',
  title: '线路列表',
  method: 'GET',
  path: `${BUSLINE}/busLine/list`,
  query: pageQuery(['code', 'name', 'updatedDate'] as const).extend({
    /** Without it: the district's open version, or its online one when none is open. */
    versionId: id('版本ID').optional(),
    /** Code or name contains. */
    name: optionalText('线路', 40).optional(),
    state: LINE_STATE.filter.optional(),
  }),
  response: pageOf(busLineRow).extend({ version: versionRef.nullable() }),
  permission: SESSION,
  // The banner shows the version's status: submitting or voiding it changes this list's answer.
  reads: ['bus', 'version'],
});

export const busLineSave = endpoint({
  id: 'busLine.save',
  title: '保存线路',
  method: 'POST',
  path: `${BUSLINE}/busLine/save`,
  body: z
    .object({
      id: id('线路ID').optional(),
      code: requiredText('线路编号', 16),
      name: requiredText('线路名称', 40),
      direction: lineDirection.default(-1),
      isLoop: z.boolean({ error: '环线应为 true 或 false' }).default(false),
      firstBus: clock('首班时间').optional(),
      lastBus: clock('末班时间').optional(),
      fare: wholeNumber('票价（分）', 0, 100_000).default(200),
      rowVersion: fromVersion,
    })
    .refine((b) => !b.isLoop || b.direction !== -1, { error: '环线只有一个方向，请选择上行或下行', path: ['direction'] }),
  response: busLineRow,
  permission: NETWORK_EDITORS,
});

export const busLineDisable = endpoint({
  id: 'busLine.disable',
  title: '停运/恢复线路',
  method: 'POST',
  path: `${BUSLINE}/busLine/disable`,
  body: z.object({ id: id('线路ID'), state: LINE_STATE.schema.default(0), rowVersion: fromVersion }),
  response: busLineRow,
  permission: NETWORK_EDITORS,
});

export const busLineInfoCall = endpoint({
  id: 'busLine.info',
  title: '线路详情',
  method: 'GET',
  path: `${BUSLINE}/busLine/info`,
  query: z.object({ id: id('线路ID') }),
  response: busLineInfo,
  permission: SESSION,
});

export const busLineDelete = endpoint({
  id: 'busLine.delete',
  title: '删除线路',
  method: 'POST',
  path: `${BUSLINE}/busLine/delete`,
  body: z.object({ id: id('线路ID') }),
  response: z.object({ id: z.number().int() }),
  permission: can({ buttons: ['BUS_LINE_DEL'] }),
});

export const busLineRouteList = endpoint({
  id: 'busLineRoute.list',
  title: '线路轨迹',
  method: 'GET',
  path: `${BUSLINE}/busLineRoute/list`,
  query: z.object({ lineId: id('线路ID') }),
  response: z.array(lineRoute),
  permission: SESSION,
});

export const busLineRouteSave = endpoint({
  id: 'busLineRoute.save',
  title: '保存线路轨迹',
  method: 'POST',
  path: `${BUSLINE}/busLineRoute/save`,
  body: z.object({
    lineId: id('线路ID'),
    direction: travel,
    points: z.array(point, { error: '轨迹点应为列表' }).min(2, { error: '轨迹至少需要2个点' }).max(MAX_PATH_POINTS, { error: `轨迹不能超过${MAX_PATH_POINTS}个点` }),
  }),
  response: lineRoute,
  permission: NETWORK_EDITORS,
});

export const busLineRouteDeleteBatch = endpoint({
  id: 'busLineRoute.deleteBatch',
  title: '删除线路轨迹',
  method: 'POST',
  path: `${BUSLINE}/busLineRoute/deleteBatch`,
  body: z.object({ ids: z.array(id('轨迹ID'), { error: '轨迹ID应为列表' }).min(1, { error: '请选择要删除的轨迹' }).max(100, { error: '一次最多删除100条轨迹' }) }),
  response: z.object({ deleted: z.number().int() }),
  permission: NETWORK_EDITORS,
});

const stopsOfDirection = z.object({ lineId: z.number().int(), direction: travel, editable: z.boolean(), stops: z.array(lineStop) });

export const busLineStationInfo = endpoint({
  id: 'busLineStation.info',
  title: '线路站点',
  method: 'GET',
  path: `${BUSLINE}/busLineStation/info`,
  query: z.object({ lineId: id('线路ID'), direction: travelQuery }),
  response: stopsOfDirection,
  permission: SESSION,
});

/** Saves a direction's whole order at once: reordering is one atomic change, not N moves. */
export const busLineStationSave = endpoint({
  id: 'busLineStation.save',
  title: '保存线路站点',
  method: 'POST',
  path: `${BUSLINE}/busLineStation/save`,
  body: z.object({
    lineId: id('线路ID'),
    direction: travel,
    stationIds: z.array(id('站点ID'), { error: '站点应为列表' }).max(MAX_LINE_STOPS, { error: `一个方向最多${MAX_LINE_STOPS}个站点` }),
  }),
  response: stopsOfDirection,
  permission: NETWORK_EDITORS,
});

export const busLineStationDelete = endpoint({
  id: 'busLineStation.delete',
  title: '删除线路站点',
  method: 'POST',
  path: `${BUSLINE}/busLineStation/delete`,
  body: z.object({ id: id('线路站点ID') }),
  response: stopsOfDirection,
  permission: NETWORK_EDITORS,
});

export const subLineRow = z.object({
  id: z.number().int(),
  lineId: z.number().int(),
  lineCode: z.string(),
  lineName: z.string(),
  versionId: z.number().int(),
  /** Its version's district: what asking before a delete names. */
  districtId: z.number().int(),
  name: z.string(),
  direction: travel,
  /** Serves every stop of its line's direction (setAllBusLineStationOn). */
  allStationsOn: z.boolean(),
  state: z.number().int(),
  stops: z.number().int(),
  updatedDate: timestamp,
  rowVersion,
});
export type SubLine = z.infer<typeof subLineRow>;

export const subLineInfo = subLineRow.extend({
  editable: z.boolean(),
  stations: z.array(lineStop),
  /** The parent line's stops of the same direction: what a sub-line may serve. */
  lineStops: z.array(lineStop),
});
export type SubLineInfo = z.infer<typeof subLineInfo>;

export const busLineDetailList = endpoint({
  id: 'busLineDetail.list',
  title: '子线路列表',
  method: 'GET',
  path: `${BUSLINE}/busLineDetail/list`,
  query: pageQuery(['name', 'updatedDate'] as const).extend({
    lineId: id('线路ID').optional(),
    /** Without it (and without lineId): the district's open version, else its online one. */
    versionId: id('版本ID').optional(),
    name: optionalText('子线路名称', 40).optional(),
  }),
  response: pageOf(subLineRow).extend({ version: versionRef.nullable() }),
  permission: SESSION,
});

export const busLineDetailSave = endpoint({
  id: 'busLineDetail.save',
  title: '保存子线路',
  method: 'POST',
  path: `${BUSLINE}/busLineDetail/save`,
  body: z.object({
    id: id('子线路ID').optional(),
    lineId: id('所属线路'),
    name: requiredText('子线路名称', 40),
    direction: travel.default(0),
    state: z.union([z.literal(0), z.literal(1)], { error: '状态应为 0 或 1' }).default(1),
    rowVersion: fromVersion,
  }),
  response: subLineRow,
  permission: NETWORK_EDITORS,
});

export const busLineDetailInfo = endpoint({
  id: 'busLineDetail.info',
  title: '子线路详情',
  method: 'GET',
  path: `${BUSLINE}/busLineDetail/info`,
  query: z.object({ id: id('子线路ID') }),
  response: subLineInfo,
  permission: SESSION,
});

export const busLineDetailDelete = endpoint({
  id: 'busLineDetail.delete',
  title: '删除子线路',
  method: 'POST',
  path: `${BUSLINE}/busLineDetail/delete`,
  body: z.object({ id: id('子线路ID') }),
  response: z.object({ id: z.number().int() }),
  permission: can({ buttons: ['BUS_LINE_DETAIL_DEL'] }),
});

export const busLineDetailAllOn = endpoint({
  id: 'busLineDetail.setAllOn',
  title: '子线路全部站点停靠',
  method: 'POST',
  path: `${BUSLINE}/busLineDetail/setAllBusLineStationOn`,
  body: z.object({ id: id('子线路ID') }),
  response: subLineInfo,
  permission: NETWORK_EDITORS,
});

export const busLineDetailStationSave = endpoint({
  id: 'busLineDetailStation.save',
  title: '保存子线路站点',
  method: 'POST',
  path: `${BUSLINE}/busLineDetailStation/save`,
  body: z.object({
    detailId: id('子线路ID'),
    stationIds: z.array(id('站点ID'), { error: '站点应为列表' }).max(MAX_LINE_STOPS, { error: `最多${MAX_LINE_STOPS}个站点` }),
  }),
  response: subLineInfo,
  permission: NETWORK_EDITORS,
});

export const busLineDetailStationInfo = endpoint({
  id: 'busLineDetailStation.info',
  title: '子线路站点',
  method: 'GET',
  path: `${BUSLINE}/busLineDetailStation/info`,
  query: z.object({ detailId: id('子线路ID') }),
  response: subLineInfo,
  permission: SESSION,
});

export const busLineDetailStationDelete = endpoint({
  id: 'busLineDetailStation.delete',
  title: '删除子线路站点',
  method: 'POST',
  path: `${BUSLINE}/busLineDetailStation/delete`,
  body: z.object({ id: id('子线路站点ID') }),
  response: subLineInfo,
  permission: NETWORK_EDITORS,
});
