import { useState } from 'react';
import type { Endpoint } from '../../shared/api';
import type { ActionRef } from '../../shared/modules';
import { api } from '../lib/api-client';
import type { CallArgs, CallInput, FiltersOf } from '../lib/http';
import { saveFile } from '../lib/save-file';
import { useScreenAction } from '../lib/screen-action';
import { toast } from '../lib/toast';
import { formatDateTime } from '../../shared/domain/time';

/**
 * 导出 Excel of a file endpoint with the screen's filters; also what the palette's `?action=export`
 * (`on`: the page's declared action) runs. The server names the file too, but the console saves the
 * blob under its own name and time.
 */
export function useExport<E extends Endpoint>(on: ActionRef, endpoint: E, filters: FiltersOf<E>, name: string, done: string) {
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      // A body form takes the filters in its body (a citizen id stays out of the URL).
      const input: CallInput = endpoint.bodyFormOf ? { body: filters } : { query: filters };
      // FiltersOf typed the filters for whichever part this endpoint reads them from.
      const file = (await api.call(endpoint, ...([input] as CallArgs<E>))) as Blob;
      saveFile(file, `${name}-${formatDateTime(new Date(), 'YYYYMMDD-HHmm')}.xlsx`);
      toast.success(done);
    } catch {
      // The refusal is in the toast.
    } finally {
      setExporting(false);
    }
  };
  useScreenAction(on, () => void run());
  return { exporting, run };
}
