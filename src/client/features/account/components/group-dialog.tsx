import { StaleNote } from '../../../components/stale-note';
import { useMemo } from 'react';
import { type RoleGroup, account } from '../../../../shared/api';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { useContractForm } from '../../../lib/use-contract-form';
import { useAuthItems } from '../api';
import { ItemTree, buildTree, itemIdsOf } from './item-tree';

/** 编辑权限: name, description and the group's menus, pages and buttons as a check-box tree. */
const valuesOf = (g: RoleGroup) => ({ name: g.name, description: g.description, selected: new Set(g.itemIds) as ReadonlySet<string> });

export function GroupDialog({ group, onClose, onSaved }: { group: RoleGroup; onClose(): void; onSaved(): void }) {
  const items = useAuthItems();
  const tree = useMemo(() => buildTree(items.data ?? []), [items.data]);
  const form = useContractForm(account.groupUpdate, {
    initial: valuesOf(group),
    errorFields: ['name', 'description', 'itemIds'],
    toInput: (v) => {
      const ids = itemIdsOf(tree, new Set(v.selected));
      // The HTTP client drops empty query values, which would mean "unchanged" here: a cleared
      // description goes as " " (trimmed to empty by the contract) and no items as "," (no ids).
      return { query: { id: group.id, name: v.name, description: v.description.trim() ? v.description : ' ', itemIds: ids.length ? ids.join(',') : ',' } };
    },
    success: (saved) => `已保存角色组 ${saved.name}`,
    onSaved,
    // Saved from the version it was opened on; another's save meanwhile shows beside the typed text.
    stale: { version: group.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;
  const submit = () => {
    if (items.data) void form.submit();
  };

  return (
    <Modal
      open
      title={`编辑权限 · ${group.name}`}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={submit}
      width="max-w-2xl"
      footer={<ModalActions onCancel={onClose} busy={form.busy} disabled={!items.data} />}
    >
      <FormError>{errors['']}</FormError>
      <Field label="名称" required maxLength={32} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} note={<StaleNote form={form} field="name" />} />
      <Field label="描述" maxLength={200} value={values.description} onChange={(e) => set('description', e.target.value)} error={errors.description} note={<StaleNote form={form} field="description" />} />
      <div className="flex flex-col gap-1 sm:flex-row">
        <span className="shrink-0 pt-1 text-sm text-gray-600 sm:pr-3 sm:text-right" style={{ width: 80 }} id={`group-${group.id}-items`}>
          权限
        </span>
        <div className="min-w-0 flex-1">
          {items.data ? (
            <>
              <ItemTree tree={tree} selected={new Set(values.selected)} onChange={(next) => set('selected', next)} label={`${group.name} 的权限`} />
              <StaleNote form={form} field="selected" show={(v) => `${v.size} 项权限`} />
            </>
          ) : items.error ? (
            <p role="alert" className="text-sm text-red-600">
              权限项加载失败 <Button className="ml-2 h-7" onClick={() => void items.mutate()}>重试</Button>
            </p>
          ) : (
            <p role="status" className="text-sm text-gray-500">
              加载中…
            </p>
          )}
          {errors.itemIds && <p className="mt-1 text-xs text-red-600">{errors.itemIds}</p>}
        </div>
      </div>
    </Modal>
  );
}
