import { KEYS, readJson, writeJson } from '../lib/storage';
import { createStore, useStore } from '../lib/store';

/** An open tab of the tags view: a full path (with query) and its title. */
export interface Tag {
  path: string;
  title: string;
  /** Affix tabs (the home page) cannot be closed. */
  affix?: boolean;
}

let login: string | null = null;
const open = createStore<Tag[]>([]);

function set(next: Tag[]) {
  if (login) writeJson(KEYS.tags(login), next);
  open.set(next);
}

const pathOnly = (full: string) => full.split('?')[0] ?? full;

export const tagStore = {
  /** Kept across reloads, per user (spec §2 tags view). */
  load(user: string, affix: Tag | null) {
    login = user;
    const saved = readJson<Tag[]>(KEYS.tags(user)) ?? [];
    const rest = saved.filter((t) => !affix || pathOnly(t.path) !== pathOnly(affix.path));
    set(affix ? [{ ...affix, affix: true }, ...rest.map((t) => ({ ...t, affix: false }))] : rest);
  },
  /** Opens or updates the tab of a page; the same page with another query replaces it. */
  visit(tag: Tag) {
    const tags = open.get();
    const i = tags.findIndex((t) => pathOnly(t.path) === pathOnly(tag.path));
    if (i === -1) return set([...tags, tag]);
    const cur = tags[i];
    if (cur && (cur.path !== tag.path || cur.title !== tag.title)) set(tags.map((t, j) => (j === i ? { ...t, path: tag.path, title: tag.title } : t)));
  },
  /** Closes one tab and returns where to go when it was the active one. */
  close(path: string): string | null {
    const tags = open.get();
    const i = tags.findIndex((t) => t.path === path);
    const tag = tags[i];
    if (!tag || tag.affix) return null;
    const next = tags.filter((_, j) => j !== i);
    set(next);
    return (next[i] ?? next[i - 1] ?? null)?.path ?? '/';
  },
  closeOthers(path: string) {
    set(open.get().filter((t) => t.affix || t.path === path));
  },
  closeAll(): string {
    const kept = open.get().filter((t) => t.affix);
    set(kept);
    return kept[0]?.path ?? '/';
  },
  get: open.get,
  subscribe: open.subscribe,
};

export const useTags = () => useStore(open);
