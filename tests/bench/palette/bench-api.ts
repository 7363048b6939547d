import type { Sample } from './probe';

/** What the bench page exposes to the Node driver as `window.bench`. */
export interface BenchApi {
  variant: 'palette' | 'cmdk';
  /** Entries the variant ranks: pages + commands + records. */
  items: number;
  /** Opens the palette (the load source's records are held back while `holdRecords` is on). */
  open(): void;
  close(): void;
  holdRecords(hold: boolean): void;
  /** Makes the held records available (starts a sample: entries available → ranked rows painted). */
  releaseRecords(): void;
  arm(): void;
  armNow(): void;
  settle(): Promise<Sample>;
  /** `settle`, and rows of the load source's group on screen: records → index → ranked rows. */
  settleRecords(): Promise<Sample>;
  longTasksSince(t: number): { count: number; longest: number; total: number };
  now(): number;
  /** src/shared/domain/search `buildIndex` alone over the same entries the palette indexes, ms. */
  buildIndexAlone(): number;
  /** Rows in the list now, and whether the palette's input has focus. */
  state(): { rows: number; inputFocused: boolean; input: string };
}

declare global {
  interface Window {
    bench?: BenchApi;
  }
}
