import { auth } from '../../../shared/api';
import type { AppDeps } from '../../context';
import type { Binder } from '../../plugins/contract';
import * as service from './service';

export function authRoutes(b: Binder, deps: AppDeps): void {
  b.bindPublic(auth.authenticate, ({ body, req }) =>
    service.login(deps, body.username, body.password, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }),
  );
  b.bind(auth.currentUser, ({ auth: a }) => service.currentUser(deps, a));
  b.bind(auth.logout, async ({ auth: a }) => {
    await service.logout(deps, a);
    return null;
  });
  b.bind(auth.authItems, ({ auth: a }) => service.authItemsOf(deps, a));
  b.bind(auth.changePassword, async ({ auth: a, body }) => {
    await service.changePassword(deps, a, body.oldPassword, body.newPassword);
    return null;
  });
}
