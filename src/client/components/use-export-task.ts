import type { Endpoint } from '../../shared/api';
import type { ActionRef } from '../../shared/modules';
import type { FiltersOf } from '../lib/http';
import { useExportAction } from './resource/export-action';
import type { ListRefusal } from './resource/resource-list';

export { startExportTask } from './resource/export-action';

/** 导出 as a task of 下载中心 (resource/export-action: the one export action, kept under its old name). */
export function useExportTask<E extends Endpoint>(on: ActionRef, endpoint: E, query: FiltersOf<E>, refusal: ListRefusal | null = null) {
  const action = useExportAction({ on, endpoint, filters: query, refusal });
  return { starting: action.busy, run: action.run };
}
