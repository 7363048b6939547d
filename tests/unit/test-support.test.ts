import { describe, expect, it } from 'vitest';
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
