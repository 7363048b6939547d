import { auth } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import * as service from './service';

/** Signing in and the session. */
export const shellServer: ServerModule = {
  id: 'shell',
  tables: [t.sessions, t.loginThrottle],
  writes: [t.users],
  routes(b, deps, { loginLimiter: limiter }) {
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
  },
};
