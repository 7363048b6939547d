import { lineVersion } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import { versionDemoSeed } from './seed';
import { versionDiff } from './diff';
import { bindHelp, helpExports, helpJobs, helpSeed } from './help-routes';
import { helpCatalogs, helpDocVotes, helpDocs } from './schema';
import * as service from './service';

/** 版本管理: line-network versions and the job that takes passed versions online on time. */
export const versionServer: ServerModule = {
  id: 'version',
  // 帮助中心's docs name their author (the user module's admin).
  seed: { dependsOn: ['station', 'user'], demo: [...versionDemoSeed, ...helpSeed] },
  exportKinds: [...helpExports],
  // 帮助中心's tables are its own (schema.ts beside this file).
  // A network belongs to its version (copied with it, diffed against it): the version module owns and seeds it; 线路列表 edits it.
  tables: [t.lineVersions, t.busLines, t.lineStations, t.lineRoutes, t.lineDetails, t.lineDetailStations, helpCatalogs, helpDocs, helpDocVotes],
  routes(b, deps) {
    b.bind(lineVersion.versionPage, ({ auth, query }) => service.pageVersions(deps, auth, query));
    b.bind(lineVersion.versionInfo, ({ auth, query }) => service.versionById(deps, auth, query.id));
    b.bind(lineVersion.versionAdd, ({ auth, body }) => service.addVersion(deps, auth, body));
    b.bind(lineVersion.versionUpdateStatus, ({ auth, body }) => service.updateStatus(deps, auth, body));
    b.bind(lineVersion.versionSetOnlineTime, ({ auth, body }) => service.setOnlineTime(deps, auth, body));
    b.bind(lineVersion.versionDelete, ({ auth, body }) => service.deleteVersion(deps, auth, body));
    b.bind(lineVersion.versionDiff, ({ auth, query }) => versionDiff(deps, auth, query.id));
    bindHelp(b, deps);
  },
  jobs: [{ name: 'version-go-live', everyMs: 30_000, run: (deps) => service.takeDueVersionsOnline(deps) }, ...helpJobs],
};
