import { useState } from 'react';
import type { z } from 'zod';
import type { Permission } from '../../shared/api';
import { useAllowed } from '../lib/permission';
import { useScreenAction } from '../lib/screen-action';
import { Button } from './button';
import type { Column } from './data-table';
import { useTableState } from './table-state';

export type Editing<R> = { mode: 'add' } | { mode: 'edit'; row: R } | null;

interface ListScreenOptions<K extends string, R> {
  /** Filter keys kept in the URL. */
  filters: readonly K[];
  /** The list endpoint's query schema: a value it would refuse is dropped from the URL's filters. */
  schema?: z.ZodType;
  /** Filters kept out of the address (personal data): see useTableState. */
  privateFilters?: readonly K[];
  /** Adding and editing rows: who may (the save endpoint's permission) and how a row is named. */
  edit?: { permission: Permission; rowName(row: R): string; label?: string; /** False for lists whose rows are only edited (角色组). */ adds?: boolean };
}

/**
 * The scaffolding every list screen shares: filters, sort and paging in the URL; the dialog being
 * edited (add or a row); the permission-gated 操作 column and Enter on a row; and the palette's
 * `?action=add` opening the add dialog once. The screen keeps only what is its own.
 */
export function useListScreen<K extends string, R>(opts: ListScreenOptions<K, R>) {
  const table = useTableState<K>({ filters: opts.filters, schema: opts.schema, privateFilters: opts.privateFilters });
  const allowed = useAllowed(opts.edit?.permission ?? { kind: 'grant' });
  const canEdit = !!opts.edit && allowed;
  const [editing, setEditing] = useState<Editing<R>>(null);
  const add = () => setEditing({ mode: 'add' });
  const edit = (row: R) => setEditing({ mode: 'edit', row });
  const close = () => setEditing(null);
  const canAdd = canEdit && opts.edit?.adds !== false;
  useScreenAction('add', () => {
    if (canAdd) add();
  });
  const label = opts.edit?.label ?? '编辑';
  const actionsColumn: Column<R> | null =
    canEdit && opts.edit
      ? {
          id: 'actions',
          header: '操作',
          fixed: true,
          cell: (row) => (
            <Button variant="text" onClick={() => edit(row)} aria-label={`${label} ${opts.edit?.rowName(row) ?? ''}`}>
              {label}
            </Button>
          ),
        }
      : null;
  return {
    table,
    canEdit,
    canAdd,
    editing,
    add,
    edit,
    close,
    /** Append to the screen's columns: present only for those who may edit. */
    actionsColumn,
    /** DataTable's onRowActivate and activateHint. */
    rowActivation: canEdit ? { onRowActivate: edit, activateHint: `按 Enter ${label}` } : {},
  };
}
