import { account, system } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import { userBaseSeed, userDemoSeed } from './seed';
import * as service from './service';
import * as sysLog from './sys-log';

/** 账号管理: staff accounts, role groups and the system log. */
export const userServer: ServerModule = {
  id: 'user',
  seed: { base: userBaseSeed, demo: userDemoSeed },
  tables: [t.users, t.roleGroups, t.roleGroupItems],
  writes: [t.sessions, t.loginThrottle],
  routes(b, deps) {
    b.bind(account.userPage, ({ auth, query }) => service.pageUsers(deps, auth, query));
    b.bind(account.userPageByBody, ({ auth, body }) => service.pageUsers(deps, auth, body));
    b.bind(account.userById, ({ auth, params }) => service.getUser(deps, auth, params.id));
    b.bind(account.userAdd, ({ auth, body }) => service.addUser(deps, auth, body));
    b.bind(account.userUpdate, ({ auth, body }) => service.updateUser(deps, auth, body));
    b.bind(account.groupList, () => service.listGroups(deps));
    b.bind(account.groupUpdate, ({ auth, query }) => service.updateGroup(deps, auth, query));
    b.bind(system.sysLogPage, ({ auth, query }) => sysLog.pageLogs(deps, auth, query));
    b.bind(system.sysLogOperationTypes, async () => sysLog.operationTypes());
  },
};
