import { defineModule } from './define';

/** 公交线路: the lines of a district's versions, their stops, paths and sub-lines. */
export const busModule = defineModule({
  id: 'bus',
  menu: {
    id: 'bus',
    title: '公交线路',
    icon: 'bus',
    jumpKey: 'b',
    pages: [
      { key: 'list', title: '线路列表', component: 'ListBusLine', actions: ['add'] },
      { key: 'bus-line', title: '线路详情', component: 'BusLine', hidden: true },
      { key: 'add-bus-line', title: '新增线路', component: 'AddBusLine', hidden: true },
      { key: 'line-path', title: '线路轨迹', component: 'LinePath', hidden: true },
      { key: 'sub-list', title: '子线路列表', component: 'ListSubLine', actions: ['add'] },
      { key: 'add-sub-line', title: '新增子线路', component: 'AddSubLine', hidden: true },
      { key: 'sub-line-station', title: '子线路站点', component: 'SubLineStation', hidden: true },
    ],
  },
  operations: {
    LINE_SAVE: '保存线路',
    LINE_STATE: '停运/恢复线路',
    LINE_DELETE: '删除线路',
    LINE_STOPS: '修改线路站点',
    LINE_ROUTE: '修改线路轨迹',
    SUB_LINE_SAVE: '保存子线路',
    SUB_LINE_DELETE: '删除子线路',
    SUB_LINE_STOPS: '修改子线路站点',
  },
});
