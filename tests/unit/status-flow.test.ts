import { describe, expect, it } from 'vitest';
import { onOffFlow, statusFlow } from '../../src/shared/frame/status-flow';
import { ACCOUNT_STATE } from '../../src/shared/api/account';
import { STATION_STATE } from '../../src/shared/api/station';

const REVIEW = statusFlow({
  name: '审核状态',
  states: [
    { code: 0, label: '待审核', tone: 'amber' },
    { code: 1, label: '已通过', tone: 'green' },
    { code: 2, label: '已驳回', tone: 'red' },
  ],
  transitions: { 0: [1, 2], 2: [0] },
});

describe('statusFlow', () => {
  it('gives labels, tones, the filter options with 全部 first, and the moves', () => {
    expect(REVIEW.label(2)).toBe('已驳回');
    expect(REVIEW.tone(0)).toBe('amber');
    expect(REVIEW.options).toEqual([
      { value: '', label: '全部' },
      { value: '0', label: '待审核' },
      { value: '1', label: '已通过' },
      { value: '2', label: '已驳回' },
    ]);
    expect(REVIEW.targets(0)).toEqual([1, 2]);
    expect(REVIEW.targets(1)).toEqual([]);
    expect(REVIEW.can(2, 0)).toBe(true);
    expect(REVIEW.can(1, 0)).toBe(false);
    // The server's `where status in (…)` for a move to 0: only from 已驳回.
    expect(REVIEW.sources(0)).toEqual([2]);
    expect(REVIEW.sources(1)).toEqual([0]);
    expect(REVIEW.refusal('申请', 1, 0)).toBe('申请不能从「已通过」改为「待审核」');
  });

  it('the field takes only its codes, the filter reads the text of one, both refuse in Chinese', () => {
    expect(REVIEW.schema.safeParse(1).success).toBe(true);
    expect(REVIEW.schema.safeParse(3).error?.issues[0]?.message).toBe('审核状态应为 0–2');
    expect(REVIEW.filter.parse('2')).toBe(2);
    expect(REVIEW.filter.safeParse('9').error?.issues[0]?.message).toBe('审核状态应为 0–2');
    expect(STATION_STATE.filter.safeParse('x').error?.issues[0]?.message).toBe('状态应为 0 或 1');
  });

  it('a yes/no flow reads true and false from the address', () => {
    expect(ACCOUNT_STATE.filter.parse('false')).toBe(false);
    expect(ACCOUNT_STATE.label(true)).toBe('启用');
    expect(ACCOUNT_STATE.targets(true)).toEqual([false]);
    const flow = onOffFlow('开关', { code: 'on', label: '开' }, { code: 'off', label: '关' });
    expect(flow.filter.parse('off')).toBe('off');
    expect(flow.can('on', 'off')).toBe(true);
    expect(flow.can('on', 'on')).toBe(false);
  });
});
