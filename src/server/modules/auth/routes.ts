import { auth } from '../../../shared/api';
import type { AppDeps } from '../../context';
import type { Binder } from '../../plugins/contract';
import type { LoginLimiter } from './login-limits';
import * as service from './service';

export function authRoutes(b: Binder, deps: AppDeps, limiter: LoginLimiter): void {
  b.bindPublic(auth.authenticate, ({ body, req }) =>
    service.login(deps, body.username, body.password, {
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
      checkRate: (login) => limiter.checkAccount(req, login),
    }),
  );
  b.bind(auth.currentUser, ({ auth: a }) => service.currentUser(deps, a));
  b.bind(auth.logout, async ({ auth: a }) => {
    await service.logout(deps, a);
    return null;
  });
  b.bind(auth.authItems, ({ auth: a }) => service.authItemsOf(deps, a));
  b.bind(auth.changePassword, async ({ auth: a, body, req }) => {
    await service.changePassword(deps, a, req.ip, body.oldPassword, body.newPassword);
    return null;
  });
}
