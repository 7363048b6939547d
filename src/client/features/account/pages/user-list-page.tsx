import { useEffect, useRef, useState } from 'react';
import { holdsPersonalNumber } from '../../../../shared/domain/mask';
import { staffKeyword } from '../staff-keyword';
import { ROLE_LABELS, type StaffUser, account } from '../../../../shared/api';
import { ACCOUNT_STATE } from '../../../../shared/api/account';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { choiceFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useResourceActions } from '../../../components/resource/row-actions';
import { useScreenAction } from '../../../lib/screen-action';
import { Allowed, useAllowed } from '../../../lib/permission';
import { useGroups } from '../api';
import { StatusBadge } from '../components/status-badge';
import { UserDialog } from '../components/user-dialog';
import { userActions } from '../user-actions';
import { ScreenSection } from '../../../components/screen-section';

/** A phone typed (or handed over) as the keyword stays out of the address; logins and names stay in it. */
const phoneKeyword = (key: string, value: string) => key === 'keyword' && holdsPersonalNumber(value);

const columns: ListColumn<typeof account.userPageByBody>[] = [
  { id: 'login', header: '登录名', sort: 'login', fixed: true, cell: (u) => <span className="font-medium text-gray-800">{u.login}</span> },
  { id: 'firstName', header: '姓名', sort: 'firstName', cell: (u) => u.firstName },
  { id: 'phone', header: '手机号', cell: (u) => u.phone ?? '—', className: 'tabular-nums' },
  { id: 'authorities', header: '角色', cell: (u) => u.authorities.map((r) => ROLE_LABELS[r]).join('、') },
  { id: 'groupName', header: '角色组', cell: (u) => u.groupName ?? '—' },
  {
    id: 'district',
    header: '区域',
    cell: (u) => (
      <>
        {u.districtName ?? '—'}
        {u.openDistrict && <span className="ml-1 rounded bg-blue-50 px-1 text-xs text-blue-600">可切换区域</span>}
      </>
    ),
  },
  { id: 'status', header: '状态', cell: (u) => <StatusBadge activated={u.activated} locked={u.locked} /> },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (u) => formatDateTime(u.createdDate), className: 'tabular-nums' },
];

type Editing = { user: StaffUser | null } | null;

/** 账号列表 (ListUser): staff accounts of the chosen area. */
export function UserListPage() {
  const groups = useGroups();
  // The body form: the keyword may be a staff member's phone, which never sits in a request URL.
  const list = useResourceList({
    endpoint: account.userPageByBody,
    record: 'user',
    filters: {
      keyword: textFilter('关键字', { placeholder: '登录名、姓名或手机' }),
      activated: flowFilter(ACCOUNT_STATE),
      groupId: choiceFilter('角色组', (groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))),
    },
    keepOutOfAddress: phoneKeyword,
  });
  // The palette's 按手机号查询 (staff) hands the phone over in memory.
  const handed = staffKeyword.useHandOff();
  const { setFilters } = list.table;
  // Applied once per hand-off: setFilters changes with every filter change.
  const applied = useRef<object | null>(null);
  useEffect(() => {
    if (!handed || applied.current === handed) return;
    applied.current = handed;
    setFilters({ keyword: handed.q });
  }, [handed, setFilters]);
  const canEdit = useAllowed(account.userAdd.permission);
  const [editing, setEditing] = useState<Editing>(null);
  // The palette's 新增账号 lands here with ?action=add.
  useScreenAction(['user', 'user-list', 'add'], () => {
    if (canEdit) setEditing({ user: null });
  });

  const actions = useResourceActions(userActions, { edit: (user) => setEditing({ user }) }, { rows: list.rows });

  return (
    <ScreenSection title="账号列表">
      <ResourceTable
        list={list}
        actions={actions}
        id="account.users"
        label="账号列表"
        columns={columns}
        rowKey={(u) => u.id}
        toolbar={
          <Allowed permission={account.userAdd.permission}>
            <Button variant="primary" className="h-8" onClick={() => setEditing({ user: null })}>
              ＋ 新增
            </Button>
          </Allowed>
        }
      />
      {editing && (
        <UserDialog
          user={editing.user}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.result.mutate();
            void groups.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}
