import type { LineVersion } from '../../../shared/api';

export const districtOf = (v: Pick<LineVersion, 'districtName'>) => v.districtName ?? '未知区域';

/** 「2027 春季线网」（徐汇区）: a version named with its district wherever the console tells of it. */
export const versionTitle = (v: Pick<LineVersion, 'name' | 'districtName'>) => `「${v.name}」（${districtOf(v)}）`;
