import { describe, expect, it } from 'vitest';
import { StreamRegistry } from '../../src/server/lib/export-tasks/streams';

describe('the event streams an instance holds', () => {
  it("replaces a session's oldest at its cap without taking another session's stream the account has room for", () => {
    const reg = new StreamRegistry({ perSession: 3, perAccount: 4, max: 0 });
    const a = [reg.admit(1, 'A')!, reg.admit(1, 'A')!, reg.admit(1, 'A')!];
    const b = reg.admit(1, 'B')!;
    // A fourth tab of A: A's oldest goes; the account holds 4 again (A×3, B×1), within its cap.
    const a4 = reg.admit(1, 'A')!;
    expect(a.map((s) => s.replaced)).toEqual([true, false, false]);
    expect(b.replaced).toBe(false);
    expect(a4.replaced).toBe(false);
    expect(reg.size).toBe(4);
  });

  it("replaces the account's oldest when a new session would take it past its cap, and refuses beyond the instance's", () => {
    const reg = new StreamRegistry({ perSession: 3, perAccount: 4, max: 5 });
    const a = [reg.admit(1, 'A')!, reg.admit(1, 'A')!, reg.admit(1, 'A')!, reg.admit(1, 'B')!];
    reg.admit(1, 'C');
    expect(a.map((s) => s.replaced)).toEqual([true, false, false, false]);
    expect(reg.size).toBe(4);
    reg.admit(2, 'D');
    expect(reg.size).toBe(5);
    expect(reg.admit(3, 'E')).toBeNull();
    expect(reg.size).toBe(5);
  });
});
