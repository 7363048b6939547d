import type { Reporter, TestModule } from 'vitest/node';

/** How many files the closing list names. */
const SHOWN = 10;

/**
 * A file's own time: its environment, setup files, import and every test and hook. Files run in
 * parallel, so these add up to more than the run's wall time; the list says where a budget goes.
 */
export function fileSeconds(m: Pick<TestModule, 'diagnostic'>): number {
  const d = m.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration) / 1000;
}

export function slowestFiles(modules: ReadonlyArray<Pick<TestModule, 'diagnostic' | 'relativeModuleId' | 'project'>>, shown = SHOWN): string[] {
  return [...modules]
    .map((m) => ({ name: `${m.relativeModuleId} [${m.project.name}]`, seconds: fileSeconds(m) }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, shown)
    .map((f, i) => `${String(i + 1).padStart(2)}. ${f.seconds.toFixed(1).padStart(7)} s  ${f.name}`);
}

/**
 * Printed after the default reporter's summary on every run (issue 20: the suite has a time budget,
 * and what grows it should be plain at the end of each run, not found by reading the whole log).
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    const lines = slowestFiles(modules);
    process.stdout.write(`\nten slowest files (${lines.length} of ${modules.length}, seconds per file):\n${lines.join('\n')}\n`);
  }
}
