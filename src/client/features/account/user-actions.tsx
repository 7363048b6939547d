import { type StaffUser, account } from '../../../shared/api';
import { callAction, defineResource } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';

/**
 * A staff account's row actions, declared once for 账号列表's table and the palette under an
 * account it found. 重置密码 is a field of 编辑 (an administrator types the new password there).
 */
export const userActions = defineResource<StaffUser>()({
  name: (u) => u.login,
  id: (u) => u.id,
  find: (id) => api.call(account.userById, { params: { id: Number(id) } }, { silent: true }),
  actions: [
    { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: account.userAdd.permission, when: (u) => u.manageable, opens: ['user', 'user-list', 'edit'] },
    callAction({
      id: 'toggle',
      label: (u: StaffUser) => (u.activated ? '禁用' : '启用'),
      hotkey: 'd',
      // 启用/禁用 is the contract's narrower declaration within user/update (README decision 8).
      permission: account.userStatusPermission,
      // Nobody disables the account they are signed in with (the server refuses it too).
      when: (u, who) => u.manageable && u.login !== who.login,
      danger: (u) => u.activated,
      endpoint: account.userUpdate,
      input: (u) => ({ body: { id: u.id, activated: !u.activated, rowVersion: u.rowVersion } }),
      done: (u) => `已${u.activated ? '禁用' : '启用'}账号 ${u.login}`,
      confirm: {
        title: (u) => (u.activated ? '禁用账号' : '启用账号'),
        body: (u) =>
          u.activated ? (
            <p>
              确定禁用账号 <b>{u.login}</b>（{u.firstName}）吗？禁用后该账号立即下线，且不能再登录。
            </p>
          ) : (
            <p>
              确定启用账号 <b>{u.login}</b>（{u.firstName}）吗？启用后该账号可以重新登录。
            </p>
          ),
      },
    }),
  ],
});
