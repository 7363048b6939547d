import { type RoleGroup, account } from '../../../../shared/api';
import { type Column, DataTable } from '../../../components/data-table';
import { useListScreen } from '../../../components/use-list-screen';
import { useGroups } from '../api';
import { GroupDialog } from '../components/group-dialog';
import { ScreenSection } from '../../../components/screen-section';

/** 角色组 (ListRoleGroup): what each group may do; the super user edits their items. */
export function RoleGroupPage() {
  const groups = useGroups();
  const screen = useListScreen<never, RoleGroup>({
    filters: [],
    edit: { permission: account.groupUpdate.permission, rowName: (g) => g.name, label: '编辑权限', adds: false },
  });
  const { editing } = screen;

  const columns: Column<RoleGroup>[] = [
    { id: 'name', header: '名称', fixed: true, cell: (g) => <span className="font-medium text-gray-800">{g.name}</span> },
    { id: 'description', header: '描述', cell: (g) => <span title={g.description}>{g.description || '—'}</span>, className: 'max-w-md truncate' },
    { id: 'userCount', header: '账号数', align: 'right', cell: (g) => g.userCount },
    { id: 'itemCount', header: '权限项数', align: 'right', cell: (g) => g.itemIds.length },
    // A column of nothing but empty cells says less than no column: only for those who may edit.
    ...(screen.actionsColumn ? [screen.actionsColumn] : []),
  ];

  return (
    <ScreenSection title="角色组">
      <DataTable
        id="account.groups"
        label="角色组"
        columns={columns}
        rowKey={(g) => g.id}
        result={groups}
        {...screen.rowActivation}
        toolbar={!screen.canEdit && <p className="text-xs text-gray-500">角色组的权限只有超级管理员可以修改。</p>}
      />
      {editing?.mode === 'edit' && (
        <GroupDialog
          group={editing.row}
          onClose={screen.close}
          onSaved={() => {
            screen.close();
            void groups.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}
