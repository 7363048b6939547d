import { describe, expect, it } from 'vitest';
import { PLATE_NO } from '../../src/shared/api/custom-bus/fleet';
import { fixturePlate } from '../support/custom-bus-fixture';
import { chromiumPresent } from '../support/e2e';

describe('the browser tests in CI', () => {
  it('are skipped on a machine without Chromium, but fail the run when CI=true', () => {
    expect(chromiumPresent('/nonexistent/chromium', {})).toBe(false);
    expect(chromiumPresent('/nonexistent/chromium', { CI: 'false' })).toBe(false);
    expect(() => chromiumPresent('/nonexistent/chromium', { CI: 'true' })).toThrow(/refusing to skip/);
    expect(() => chromiumPresent('/nonexistent/chromium', { CI: '1' })).toThrow(/is missing/);
    expect(chromiumPresent(process.execPath, { CI: 'true' })).toBe(true);
  });
});

describe('the 定制公交 fixture', () => {
  it('makes plates the save accepts (no I or O), each once', () => {
    const plates = Array.from({ length: 5_000 }, fixturePlate);
    expect(plates.filter((p) => !PLATE_NO.test(p))).toEqual([]);
    expect(new Set(plates).size).toBe(plates.length);
  });
});
