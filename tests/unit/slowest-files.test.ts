import { describe, expect, it } from 'vitest';
import { fileSeconds, slowestFiles } from '../support/slowest-files';

const file = (name: string, project: string, ms: { env?: number; prepare?: number; setup?: number; collect?: number; tests: number }) => ({
  relativeModuleId: name,
  project: { name: project },
  diagnostic: () => ({ environmentSetupDuration: ms.env ?? 0, prepareDuration: ms.prepare ?? 0, setupDuration: ms.setup ?? 0, collectDuration: ms.collect ?? 0, duration: ms.tests }),
});

describe('the ten slowest files', () => {
  it("counts a file's setup and import with its tests", () => {
    expect(fileSeconds(file('a', 'unit', { env: 100, prepare: 200, setup: 300, collect: 400, tests: 1_000 }) as never)).toBe(2);
  });

  it('lists the slowest first, at most ten, with project and seconds', () => {
    const files = Array.from({ length: 12 }, (_, i) => file(`tests/f${i}.test.ts`, i % 2 ? 'server' : 'server-pg', { tests: (i + 1) * 1_000, collect: 100 }));
    const lines = slowestFiles(files as never);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe(' 1.    12.1 s  tests/f11.test.ts [server]');
    expect(lines[9]).toBe('10.     3.1 s  tests/f2.test.ts [server-pg]');
  });
});
