/**
 * What the download centre runs is a declared export (lib/export-definition.ts) that counts its rows:
 * the worker knows nothing of rides or riders, only how to count, read and write what one yields.
 * Rows come in batches in a stable order, each read on its own (no long transaction), so a batch
 * is a short query however big the file.
 */
export type { AnyTaskExport as AnyExportKind, ExportScope, TaskExport as ExportKind } from '../export-definition';
