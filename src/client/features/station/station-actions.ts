import { type Station, station } from '../../../shared/api';
import { STATION_STATE } from '../../../shared/api/station';
import { callAction, defineResource } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { mergeInto } from './merge-action';

/**
 * The state alone, from the one on screen and the version on screen (issue 21): a station saved by
 * someone else meanwhile is refused as stale rather than switched under them.
 */
const move = (s: Station, fromStatus: Station['state'], state: Station['state'], rowVersion = s.rowVersion) => ({ body: { id: s.id, state, fromStatus, rowVersion } });
const other = (state: Station['state']) => (state ? 0 : 1);

/**
 * A station's row actions, declared once: 站点's table (buttons, hotkeys, Enter) and the palette
 * under a `#` station both offer these.
 */
export const stationActions = defineResource<Station>()({
  name: (s) => s.name,
  id: (s) => s.id,
  // A district has a few hundred stops: the palette's own list, searched for the id.
  find: async (id) => (await api.call(station.stationList, { query: { page: 0, size: 1000 } }, { silent: true })).content.find((s) => String(s.id) === id),
  actions: [
    { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: station.stationSave.permission, opens: ['station', 'station', 'edit'] },
    // Taking a stop out of service is one key and can be taken back: no question, 撤销 instead.
    callAction({
      id: 'state',
      label: (s: Station) => (s.state ? '停用' : '启用'),
      hotkey: 's',
      permission: station.stationUpdateState.permission,
      danger: (s) => s.state === 1,
      endpoint: station.stationUpdateState,
      input: (s) => move(s, s.state, other(s.state)),
      done: (s) => `已${s.state ? '停用' : '启用'}站点「${s.name}」`,
      // Back from the version the switch made, which its answer carries.
      undo: { input: (s, moved) => move(s, other(s.state), s.state, moved.rowVersion), done: (s) => `已撤销：站点「${s.name}」恢复为${STATION_STATE.label(s.state)}` },
    }),
    // A duplicate goes into the station chosen in the palette's step (a table row opens it there).
    mergeInto,
  ],
});
