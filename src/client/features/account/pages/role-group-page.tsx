import { useState } from 'react';
import { type RoleGroup, account } from '../../../../shared/api';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { ScreenSection } from '../../../components/screen-section';
import { GroupDialog } from '../components/group-dialog';

const columns: ListColumn<typeof account.groupList>[] = [
  { id: 'name', header: '名称', fixed: true, cell: (g) => <span className="font-medium text-gray-800">{g.name}</span> },
  { id: 'description', header: '描述', cell: (g) => <span title={g.description}>{g.description || '—'}</span>, className: 'max-w-md truncate' },
  { id: 'userCount', header: '账号数', align: 'right', cell: (g) => g.userCount },
  { id: 'itemCount', header: '权限项数', align: 'right', cell: (g) => g.itemIds.length },
];

/** 角色组 (ListRoleGroup): what each group may do; the super user edits their items. */
export function RoleGroupPage() {
  const list = useResourceList({ endpoint: account.groupList, filters: {} });
  const [editing, setEditing] = useState<RoleGroup | null>(null);
  // Groups are only edited, never added here; the 操作 column shows only for those who may.
  const actions = useRowActions<RoleGroup>(
    [{ id: 'edit', label: '编辑权限', hotkey: 'e', primary: true, permission: account.groupUpdate.permission, open: setEditing }],
    (g) => g.name,
  );
  return (
    <ScreenSection title="角色组">
      <ResourceTable
        list={list}
        actions={actions}
        id="account.groups"
        label="角色组"
        columns={columns}
        rowKey={(g) => g.id}
        toolbar={!actions.any && <p className="text-xs text-gray-500">角色组的权限只有超级管理员可以修改。</p>}
      />
      {/* Saving refetches the list by its tags (useContractForm). */}
      {editing && <GroupDialog group={editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />}
    </ScreenSection>
  );
}
