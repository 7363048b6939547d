import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A test fails when anything calls console.error it did not expect: React's warnings (act, keys,
 * state updates after unmount), a failed request the code swallowed, a server error logged on the
 * way. Unhandled rejections already fail the run (vitest's default). A test that expects an error
 * line says so with `expectConsoleError(/pattern/)`.
 */
let seen: string[] = [];
let expected: RegExp[] = [];

export function expectConsoleError(pattern: RegExp): void {
  expected.push(pattern);
}

beforeEach(() => {
  seen = [];
  expected = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    seen.push(args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(' '));
  });
});

afterEach(() => {
  const unexpected = seen.filter((line) => !expected.some((p) => p.test(line)));
  seen = [];
  if (unexpected.length) throw new Error(`console.error was called ${unexpected.length} time(s):\n${unexpected.join('\n').slice(0, 2_000)}`);
});
