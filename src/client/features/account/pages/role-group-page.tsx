import { useState } from 'react';
import { type RoleGroup, account } from '../../../../shared/api';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import { useAllowed } from '../../../lib/permission';
import { useGroups } from '../api';
import { GroupDialog } from '../components/group-dialog';
import { ScreenSection } from '../../../components/screen-section';

/** 角色组 (ListRoleGroup): what each group may do; the super user edits their items. */
export function RoleGroupPage() {
  const groups = useGroups();
  const canEdit = useAllowed(account.groupUpdate.permission);
  const [editing, setEditing] = useState<RoleGroup | null>(null);

  const columns: Column<RoleGroup>[] = [
    { id: 'name', header: '名称', fixed: true, cell: (g) => <span className="font-medium text-gray-800">{g.name}</span> },
    { id: 'description', header: '描述', cell: (g) => <span title={g.description}>{g.description || '—'}</span>, className: 'max-w-md truncate' },
    { id: 'userCount', header: '账号数', align: 'right', cell: (g) => g.userCount },
    { id: 'itemCount', header: '权限项数', align: 'right', cell: (g) => g.itemIds.length },
  ];
  // A column of nothing but empty cells says less than no column.
  if (canEdit) {
    columns.push({
      id: 'actions',
      header: '操作',
      fixed: true,
      cell: (g) => (
        <Button variant="text" onClick={() => setEditing(g)} aria-label={`编辑权限 ${g.name}`}>
          编辑权限
        </Button>
      ),
    });
  }

  return (
    <ScreenSection title="角色组">
      <DataTable
        id="account.groups"
        label="角色组"
        columns={columns}
        rowKey={(g) => g.id}
        result={groups}
        onRowActivate={canEdit ? (g) => setEditing(g) : undefined}
        activateHint={canEdit ? '按 Enter 编辑权限' : undefined}
        toolbar={!canEdit && <p className="text-xs text-gray-400">角色组的权限只有超级管理员可以修改。</p>}
      />
      {editing && (
        <GroupDialog
          group={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void groups.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}
