import { busLine } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import * as lines from './lines';
import * as stops from './stops';
import * as subLines from './sub-lines';

/** 公交线路: lines of the open version, their stops per direction, paths and sub-lines. */
export const busServer: ServerModule = {
  id: 'bus',
  tables: [],
  writes: [t.busLines, t.lineStations, t.lineRoutes, t.lineDetails, t.lineDetailStations],
  routes(b, deps) {
    b.bind(busLine.busLineList, ({ auth, query }) => lines.listLines(deps, auth, query));
    b.bind(busLine.busLineSave, ({ auth, body }) => lines.saveLine(deps, auth, body));
    b.bind(busLine.busLineDisable, ({ auth, body }) => lines.setLineState(deps, auth, body));
    b.bind(busLine.busLineInfoCall, ({ auth, query }) => lines.lineInfo(deps, auth, query.id));
    b.bind(busLine.busLineDelete, ({ auth, body }) => lines.deleteLine(deps, auth, body.id));
    b.bind(busLine.busLineRouteList, ({ auth, query }) => stops.listRoutes(deps, auth, query.lineId));
    b.bind(busLine.busLineRouteSave, ({ auth, body }) => stops.saveRoute(deps, auth, body));
    b.bind(busLine.busLineRouteDeleteBatch, ({ auth, body }) => stops.deleteRoutes(deps, auth, body.ids));
    b.bind(busLine.busLineStationInfo, ({ auth, query }) => stops.stopsInfo(deps, auth, query.lineId, query.direction));
    b.bind(busLine.busLineStationSave, ({ auth, body }) => stops.saveStops(deps, auth, body));
    b.bind(busLine.busLineStationDelete, ({ auth, body }) => stops.deleteStop(deps, auth, body.id));
    b.bind(busLine.busLineDetailList, ({ auth, query }) => subLines.listSubLines(deps, auth, query));
    b.bind(busLine.busLineDetailSave, ({ auth, body }) => subLines.saveSubLine(deps, auth, body));
    b.bind(busLine.busLineDetailInfo, ({ auth, query }) => subLines.subLineInfo(deps, auth, query.id));
    b.bind(busLine.busLineDetailDelete, ({ auth, body }) => subLines.deleteSubLine(deps, auth, body.id));
    b.bind(busLine.busLineDetailAllOn, ({ auth, body }) => subLines.setAllStationsOn(deps, auth, body.id));
    b.bind(busLine.busLineDetailStationSave, ({ auth, body }) => subLines.saveSubLineStops(deps, auth, body));
    b.bind(busLine.busLineDetailStationInfo, ({ auth, query }) => subLines.subLineInfo(deps, auth, query.detailId));
    b.bind(busLine.busLineDetailStationDelete, ({ auth, body }) => subLines.deleteSubLineStop(deps, auth, body.id));
  },
};
