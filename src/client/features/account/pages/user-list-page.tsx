import { useEffect, useMemo, useRef, useState } from 'react';
import { holdsPersonalNumber } from '../../../../shared/domain/mask';
import { staffKeyword } from '../staff-keyword';
import { ROLE_LABELS, type StaffUser, account } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { useTableState } from '../../../components/table-state';
import { useScreenAction } from '../../../lib/screen-action';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { Allowed, useAllowed } from '../../../lib/permission';
import { STATUS_PERMISSION, useCurrentUser, useGroups, useUsers } from '../api';
import { StatusBadge } from '../components/status-badge';
import { UserDialog } from '../components/user-dialog';
import { ScreenSection } from '../../../components/screen-section';

const FILTER_KEYS = ['keyword', 'activated', 'groupId'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** A phone typed (or handed over) as the keyword stays out of the address; logins and names stay in it. */
const phoneKeyword = (key: FilterKey, value: string) => key === 'keyword' && holdsPersonalNumber(value);

type Editing = { mode: 'add' } | { mode: 'edit'; user: StaffUser } | null;

/** 账号列表 (ListUser): staff accounts of the chosen area. */
export function UserListPage() {
  const table = useTableState<FilterKey>({ filters: FILTER_KEYS, schema: account.userPage.query, keepOutOfAddress: phoneKeyword });
  const users = useUsers(table.query);
  // The palette's 按手机号查询 (staff) hands the phone over in memory.
  const handed = staffKeyword.useHandOff();
  const { setFilters } = table;
  // Applied once per hand-off: setFilters changes with every filter change.
  const applied = useRef<object | null>(null);
  useEffect(() => {
    if (!handed || applied.current === handed) return;
    applied.current = handed;
    setFilters({ keyword: handed.q });
  }, [handed, setFilters]);
  const groups = useGroups();
  const me = useCurrentUser();
  const canEdit = useAllowed(account.userAdd.permission);
  const canToggle = useAllowed(STATUS_PERMISSION);
  const [editing, setEditing] = useState<Editing>(null);
  const [toggling, setToggling] = useState<StaffUser | null>(null);
  // The palette's 新增账号 lands here with ?action=add.
  useScreenAction(['user', 'user-list', 'add'], () => {
    if (canEdit) setEditing({ mode: 'add' });
  });
  const [busy, setBusy] = useState(false);

  const filters = useMemo<FilterDef<FilterKey>[]>(
    () => [
      { key: 'keyword', label: '关键字', type: 'text', placeholder: '登录名、姓名或手机', maxLength: 50 },
      {
        key: 'activated',
        label: '状态',
        type: 'select',
        options: [
          { value: '', label: '全部' },
          { value: 'true', label: '启用' },
          { value: 'false', label: '禁用' },
        ],
      },
      {
        key: 'groupId',
        label: '角色组',
        type: 'select',
        options: [{ value: '', label: '全部' }, ...(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))],
      },
    ],
    [groups.data],
  );

  const isSelf = (u: StaffUser) => u.login === me.data?.login;

  const columns: Column<StaffUser>[] = [
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
  if (canEdit || canToggle) {
    columns.push({
      id: 'actions',
      header: '操作',
      fixed: true,
      cell: (u) => (
        <span className="flex gap-1">
          {canEdit && u.manageable && (
            <Button variant="text" onClick={() => setEditing({ mode: 'edit', user: u })} aria-label={`编辑 ${u.login}`}>
              编辑
            </Button>
          )}
          {/* Nobody disables the account they are signed in with (the server refuses it too). */}
          {canToggle && u.manageable && !isSelf(u) && (
            <Button
              variant="text"
              onClick={() => setToggling(u)}
              className={u.activated ? '!text-red-600' : ''}
              aria-label={`${u.activated ? '禁用' : '启用'} ${u.login}`}
            >
              {u.activated ? '禁用' : '启用'}
            </Button>
          )}
        </span>
      ),
    });
  }

  const toggle = async () => {
    if (!toggling || busy) return;
    setBusy(true);
    try {
      await api.call(account.userUpdate, { body: { id: toggling.id, activated: !toggling.activated } });
      toast.success(`已${toggling.activated ? '禁用' : '启用'}账号 ${toggling.login}`);
      setToggling(null);
      void users.mutate();
    } catch {
      // The HTTP client has shown the refusal; the dialog stays for another try or Esc.
    } finally {
      setBusy(false);
    }
  };

  return (
    <ScreenSection title="账号列表">
      <DataTable
        id="account.users"
        label="账号列表"
        columns={columns}
        rowKey={(u) => u.id}
        result={users}
        state={table}
        filters={filters}
        onRowActivate={canEdit ? (u) => u.manageable && setEditing({ mode: 'edit', user: u }) : undefined}
        activateHint={canEdit ? (u) => (u.manageable ? '按 Enter 编辑' : undefined) : undefined}
        toolbar={
          <Allowed permission={account.userAdd.permission}>
            <Button variant="primary" className="h-8" onClick={() => setEditing({ mode: 'add' })}>
              ＋ 新增
            </Button>
          </Allowed>
        }
      />
      {editing && (
        <UserDialog
          user={editing.mode === 'edit' ? editing.user : null}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void users.mutate();
            void groups.mutate();
          }}
        />
      )}
      <ConfirmDialog
        open={!!toggling}
        title={toggling?.activated ? '禁用账号' : '启用账号'}
        confirmLabel={toggling?.activated ? '禁用' : '启用'}
        danger={toggling?.activated}
        busy={busy}
        onConfirm={toggle}
        onClose={() => setToggling(null)}
      >
        {toggling &&
          (toggling.activated ? (
            <p>
              确定禁用账号 <b>{toggling.login}</b>（{toggling.firstName}）吗？禁用后该账号立即下线，且不能再登录。
            </p>
          ) : (
            <p>
              确定启用账号 <b>{toggling.login}</b>（{toggling.firstName}）吗？启用后该账号可以重新登录。
            </p>
          ))}
      </ConfirmDialog>
    </ScreenSection>
  );
}
