import type { Endpoint } from '../../shared/api';
import type { ActionRef } from '../../shared/modules';
import type { FiltersOf } from '../lib/http';
import { useExportAction } from './resource/export-action';

/**
 * 导出 Excel of a file endpoint (resource/export-action: the one export action, kept under its old
 * name). The server names the file too, but the console saves the blob under its own name and time.
 */
export function useExport<E extends Endpoint>(on: ActionRef, endpoint: E, filters: FiltersOf<E>, name: string, done: string) {
  const action = useExportAction({ on, endpoint, filters, file: { name, done } });
  return { exporting: action.busy, run: action.run };
}
