import { station } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import { stationDemoSeed } from './seed';
import { mergePreview, mergeStations } from './merge';
import { stationsNotOnLine, stationsOnLine } from './line-stations';
import * as service from './service';

/** 站点管理: stations and their mini-program QR codes. */
export const stationServer: ServerModule = {
  id: 'station',
  seed: { demo: stationDemoSeed },
  tables: [t.stations],
  writes: [t.lineStations, t.lineDetailStations],
  routes(b, deps) {
    b.bind(station.stationList, ({ auth, query }) => service.listStations(deps, auth, query));
    b.bind(station.stationSave, ({ auth, body }) => service.saveStation(deps, auth, body));
    b.bind(station.stationUpdateState, ({ auth, body }) => service.updateStationState(deps, auth, body));
    b.bind(station.stationQrByStation, ({ auth, query }) => service.qrByStation(deps, auth, query.stationId));
    b.bind(station.stationQrInit, ({ auth }) => service.qrInit(deps, auth));
    b.bind(station.stationQrSurplus, ({ auth }) => service.qrSurplus(deps, auth));
    b.bind(station.stationQrPage, ({ auth, query }) => service.qrPage(deps, auth, query));
    b.bind(station.stationMergePreview, ({ auth, query }) => mergePreview(deps, auth, query));
    b.bind(station.stationMerge, ({ auth, query }) => mergeStations(deps, auth, query));
    b.bind(station.stationListExcludeLine, ({ auth, query }) => stationsNotOnLine(deps, auth, query));
    b.bind(station.stationListIncludeLine, ({ auth, query }) => stationsOnLine(deps, auth, query));
    b.bind(station.stationQrExport, ({ auth, query, reply }) => service.qrExport(deps, auth, query, reply));
  },
};
