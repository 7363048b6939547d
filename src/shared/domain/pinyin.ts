import { pinyin } from 'pinyin-pro';
import { HAN, type Romanize, norm } from './search';

/**
 * The pinyin dictionary behind the palette's search (349 kB raw): its own module so the console
 * loads it after the shell, never in the way of the first keystroke.
 */

const MAX_VARIANTS = 4;

/** Every reading of one character, once: a few hundred distinct characters make up 50k titles. */
const readingsCache = new Map<string, string[]>();
function readings(ch: string): string[] {
  let r = readingsCache.get(ch);
  if (!r) {
    r = pinyin(ch, { toneType: 'none', type: 'array', multiple: true }) as string[];
    readingsCache.set(ch, r);
  }
  return r;
}

/** The context reading, plus other readings of polyphones one at a time (长宁 → changning, zhangning). */
export const romanize: Romanize = (title) => {
  const chars = [...title];
  const contextual = (pinyin(title, { toneType: 'none', type: 'array' }) as string[]).map((x) => x.toLowerCase());
  const variants: string[][] = [contextual];
  chars.forEach((ch, i) => {
    if (!HAN.test(ch)) return;
    for (const alt of readings(ch)) {
      if (variants.length >= MAX_VARIANTS || alt === contextual[i]) continue;
      const v = contextual.slice();
      v[i] = alt;
      variants.push(v);
    }
  });
  return {
    full: [...new Set(variants.map((v) => norm(v.join(''))))],
    initials: [...new Set(variants.map((v) => norm(v.map((syl) => syl[0] ?? '').join(''))))],
  };
};
