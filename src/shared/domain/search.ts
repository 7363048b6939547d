/**
 * The palette's ranking, pure and framework-free: an index built once per source, then a scan per
 * keystroke over precomputed lower-case forms (the title, keywords and, when a romanizer is given,
 * the full pinyin and initials of every Chinese text).
 *
 * The pinyin dictionary is the heaviest thing the palette needs, so it is not imported here: the
 * caller passes `romanize` (shared/domain/pinyin) once it has loaded, and until then the index
 * matches characters, letters and digits only.
 */

export interface SearchEntry {
  id: string;
  title: string;
  keywords?: readonly string[];
}

export const enum Tier {
  Fuzzy = 1,
  Substring = 2,
  Initials = 3,
  Prefix = 4,
  Exact = 5,
}

export interface SearchIndex {
  ids: string[];
  /** id → position, to place recents without scanning. */
  position: Map<string, number>;
  /**
   * Per entry, every form in one string: `\u0001form\u0001form…\u0001\u0002initials\u0002…`, so a
   * tier is one `includes` (exact: `\u0001q\u0001`, prefix: `\u0001q`, initials: `\u0002q`,
   * substring: `q`). Queries never contain the separators, so matches never straddle forms.
   */
  text: string[];
  /** The title's own forms, in the same shape: a match there outranks one in a subtitle or keyword. */
  titleText: string[];
  /** Characters in the title: within a tier the shorter (closer) title ranks first. */
  titleLength: Uint16Array;
}

/** Pinyin spellings and initials of a Chinese text (both readings of polyphones). */
export type Romanize = (text: string) => { full: string[]; initials: string[] };

/** A Chinese character: the texts pinyin is worked out for. */
export const HAN = /[\u3400-\u9fff]/;
const FORM = '\u0001';
const INIT = '\u0002';

export const norm = (s: string) => s.toLowerCase().replace(/[\s\u0001\u0002]+/g, '');

type Forms = { full: string[]; initials: string[] };

/** One entry's text; `cache` holds the pinyin of sources already seen (subtitles repeat a lot). */
function formsText(sources: readonly string[], cache: Map<string, Forms>, romanize: Romanize | undefined): string {
  const forms = new Set<string>();
  const initials = new Set<string>();
  for (const source of sources) {
    const n = norm(source);
    if (!n) continue;
    forms.add(n);
    if (romanize && HAN.test(source)) {
      let p = cache.get(source);
      if (!p) {
        p = romanize(source.replace(/\s+/g, ''));
        cache.set(source, p);
      }
      p.full.forEach((x) => forms.add(x));
      p.initials.forEach((x) => initials.add(x));
    }
  }
  return `${FORM}${[...forms].join(FORM)}${FORM}${INIT}${[...initials].join(INIT)}${INIT}`;
}

interface Builder {
  ids: string[];
  text: string[];
  titleText: string[];
  lengths: number[];
  cache: Map<string, Forms>;
  romanize: Romanize | undefined;
}

const builder = (romanize: Romanize | undefined): Builder => ({ ids: [], text: [], titleText: [], lengths: [], cache: new Map(), romanize });

function add(b: Builder, e: SearchEntry) {
  b.ids.push(e.id);
  const title = formsText([e.title], b.cache, b.romanize);
  b.titleText.push(title);
  b.text.push(e.keywords?.length ? title + formsText(e.keywords, b.cache, b.romanize) : title);
  b.lengths.push(Math.min(65535, [...e.title].length));
}

const finish = (b: Builder): SearchIndex => ({
  ids: b.ids,
  text: b.text,
  titleText: b.titleText,
  titleLength: Uint16Array.from(b.lengths),
  position: new Map(b.ids.map((id, i) => [id, i])),
});

export function buildIndex(entries: readonly SearchEntry[], romanize?: Romanize): SearchIndex {
  const b = builder(romanize);
  for (const e of entries) add(b, e);
  return finish(b);
}

const yieldToBrowser = () =>
  new Promise<void>((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });

/** The same index, built in slices of about `sliceMs`, yielding in between so input and paint go on. */
export async function buildIndexAsync(
  entries: readonly SearchEntry[],
  opts: { sliceMs?: number; signal?: AbortSignal; romanize?: Romanize } = {},
): Promise<SearchIndex> {
  const sliceMs = opts.sliceMs ?? 8;
  const b = builder(opts.romanize);
  let sliceStart = performance.now();
  for (let i = 0; i < entries.length; i++) {
    add(b, entries[i] as SearchEntry);
    if ((i & 63) === 63 && performance.now() - sliceStart > sliceMs) {
      await yieldToBrowser();
      if (opts.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      sliceStart = performance.now();
    }
  }
  return finish(b);
}

/** The tier of one entry, without fuzzy (the caller decides whether fuzzy is worth a scan). */
function strongTier(text: string, q: string): Tier | 0 {
  if (!text.includes(q)) return 0;
  if (text.includes(FORM + q + FORM)) return Tier.Exact;
  // All the initials typed (xhq for 徐汇区) weigh like a prefix of the word itself.
  if (text.includes(FORM + q) || text.includes(INIT + q + INIT)) return Tier.Prefix;
  if (text.includes(INIT + q)) return Tier.Initials;
  return Tier.Substring;
}

const FORM_CODE = 1;
const INIT_CODE = 2;

/** Fuzzy: the query's letters in order inside one form (never across forms), without allocating. */
function fuzzy(text: string, q: string): boolean {
  let i = 0;
  const want = q.length;
  for (let j = 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === INIT_CODE) return false;
    if (c === FORM_CODE) i = 0;
    else if (c === q.charCodeAt(i) && ++i === want) return true;
  }
  return false;
}

export interface Match {
  id: string;
  tier: Tier;
  score: number;
  /** Position in the index: the stable tiebreak. */
  order: number;
}

export interface SearchOptions {
  limit?: number;
  /** Recency/frequency bonus per id, 0–1; never lifts an entry above a better tier. */
  boosts?: ReadonlyMap<string, number>;
}

interface Pass {
  /** Entry positions matching in a strong tier (exact…substring), in index order. */
  strong: number[];
  /** Tier per position (0: no match); a typed array, as a single letter can match every entry. */
  tiers: Uint8Array;
  /** Positions matching fuzzily, or null when the strong tiers filled the page and fuzzy was skipped. */
  fuzzy: number[] | null;
}

/** Shorter queries match in the strong tiers only. */
export const FUZZY_MIN = 3;

/**
 * A match only in a subtitle or keyword weighs a tier less than the same match in a title (never
 * below substring): `gj`, all the initials of GPS排序's keyword 轨迹, must not outrank 公交… whose
 * title starts with them.
 */
function keywordDemoted(index: SearchIndex, i: number, q: string, t: Tier | 0): Tier | 0 {
  if (t <= Tier.Substring) return t;
  const inTitle = strongTier(index.titleText[i] as string, q);
  return inTitle === t ? t : (Math.max(inTitle, t - 1, Tier.Substring) as Tier);
}

function run(index: SearchIndex, q: string, limit: number, strongScan: readonly number[] | null, fuzzyScan: readonly number[] | null): Pass {
  const strong: number[] = [];
  const tiers = new Uint8Array(index.ids.length);
  const n = strongScan ? strongScan.length : index.ids.length;
  for (let k = 0; k < n; k++) {
    const i = strongScan ? (strongScan[k] as number) : k;
    const t = keywordDemoted(index, i, q, strongTier(index.text[i] as string, q));
    if (t) {
      strong.push(i);
      tiers[i] = t;
    }
  }
  // Two letters in order are inside most pinyin forms (`xg` in xinzeng, xianlu…): fuzzy starts at three.
  if (strong.length >= limit || q.length < FUZZY_MIN) return { strong, tiers, fuzzy: null };
  const fuzzyHits: number[] = [];
  const m = fuzzyScan ? fuzzyScan.length : index.ids.length;
  for (let k = 0; k < m; k++) {
    const i = fuzzyScan ? (fuzzyScan[k] as number) : k;
    if (tiers[i]) continue;
    if (fuzzy(index.text[i] as string, q)) {
      fuzzyHits.push(i);
      tiers[i] = Tier.Fuzzy;
    }
  }
  return { strong, tiers, fuzzy: fuzzyHits };
}

/**
 * Best tier first; within a tier recents first, then a hit in the title before one only in a
 * subtitle or keyword, then the shorter title (the closer match), then index order.
 */
function rank(index: SearchIndex, pass: Pass, q: string, limit: number, boosts?: ReadonlyMap<string, number>): Match[] {
  const boosted: Match[] = [];
  for (const [id, b] of boosts ?? []) {
    const i = index.position.get(id);
    const t = i === undefined ? 0 : (pass.tiers[i] ?? 0);
    if (i !== undefined && t && b > 0) boosted.push({ id, tier: t, score: t + Math.min(0.99, b), order: i });
  }
  boosted.sort((a, b) => b.score - a.score || a.order - b.order);
  const out: Match[] = [];
  const taken = new Set(boosted.map((m) => m.order));
  for (let t = Tier.Exact; t >= Tier.Fuzzy && out.length < limit; t--) {
    for (const m of boosted) if (m.tier === t) out.push(m);
    const source: readonly number[] = t === Tier.Fuzzy ? (pass.fuzzy ?? []) : pass.strong;
    let n = 0;
    const keys = new Float64Array(source.length);
    for (const i of source) {
      if (pass.tiers[i] !== t || taken.has(i)) continue;
      const title = index.titleText[i] as string;
      const inTitle = t === Tier.Fuzzy ? fuzzy(title, q) : title.includes(q);
      // One number per entry (closeness, then position) so a typed-array sort orders them.
      keys[n++] = ((inTitle ? 0 : 65536) + (index.titleLength[i] ?? 0)) * 1_048_576 + i;
    }
    const sorted = keys.subarray(0, n).sort();
    for (let k = 0; k < n && out.length < limit; k++) {
      const i = (sorted[k] as number) % 1_048_576;
      out.push({ id: index.ids[i] as string, tier: t, score: t, order: i });
    }
  }
  return out.slice(0, limit);
}

export function search(index: SearchIndex, query: string, opts: SearchOptions = {}): Match[] {
  const q = norm(query);
  if (!q) return [];
  const limit = opts.limit ?? 50;
  return rank(index, run(index, q, limit, null, null), q, limit, opts.boosts);
}

/**
 * Remembers the last query's matches: when the next query extends it, only those can match again
 * (every tier is monotone under extension), so typing gets cheaper as it narrows.
 */
export function createSearcher(index: SearchIndex) {
  let last: { q: string; pass: Pass } | null = null;
  return (query: string, opts: SearchOptions = {}): Match[] => {
    const q = norm(query);
    if (!q) {
      last = null;
      return [];
    }
    const limit = opts.limit ?? 50;
    const narrowing = last !== null && q.startsWith(last.q);
    const strongScan = narrowing && last ? last.pass.strong : null;
    // Fuzzy candidates are the last strong and fuzzy matches, when the last pass computed fuzzy at all.
    const fuzzyScan = narrowing && last?.pass.fuzzy ? [...last.pass.strong, ...last.pass.fuzzy].sort((a, b) => a - b) : null;
    const pass = run(index, q, limit, strongScan, fuzzyScan);
    last = { q, pass };
    return rank(index, pass, q, limit, opts.boosts);
  };
}
