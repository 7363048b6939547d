import { z } from 'zod';

/** Messages zod writes itself (wrong types, unknown values) come out in Chinese too. */
export function installChineseZodMessages(): void {
  z.config(z.locales.zhCN());
}
