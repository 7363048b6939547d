import { account } from '../../../shared/api';
import type { AppDeps } from '../../context';
import type { Binder } from '../../plugins/contract';
import * as service from './service';

export function accountRoutes(b: Binder, deps: AppDeps): void {
  b.bind(account.userPage, ({ auth, query }) => service.pageUsers(deps, auth, query));
  b.bind(account.userById, ({ auth, params }) => service.getUser(deps, auth, params.id));
  b.bind(account.userAdd, ({ auth, body }) => service.addUser(deps, auth, body));
  b.bind(account.userUpdate, ({ auth, body }) => service.updateUser(deps, auth, body));
  b.bind(account.groupList, () => service.listGroups(deps));
  b.bind(account.groupUpdate, ({ auth, query }) => service.updateGroup(deps, auth, query));
}
