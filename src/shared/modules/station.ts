import { defineModule } from './define';

/** 站点管理: stations of a district, shared by its line versions, and their mini-program QR codes. */
export const stationModule = defineModule({
  id: 'station',
  menu: {
    id: 'station',
    title: '站点管理',
    icon: 'station',
    jumpKey: 's',
    pages: [
      { key: 'station', title: '站点', component: 'ListStation', actions: ['add', 'merge', 'edit'] },
      { key: 'gps-sort', title: 'GPS排序', component: 'GpsSort' },
      { key: 'station-qr-code', title: '站点二维码', component: 'ListStationQrCode', actions: ['generate', 'export'] },
    ],
  },
  operations: {
    STATION_SAVE: '保存站点',
    STATION_QR_INIT: '生成站点二维码',
    STATION_MERGE: '合并站点',
    STATION_QR_EXPORT: '导出站点二维码',
  },
});
