import { useMemo } from 'react';
import { MAIN_ID } from '../../lib/focus';
import { useTitleOf } from '../../lib/screen-title';
import { ScreenContext } from '../../lib/screen-context';
import { type MenuEntry, type MenuPage, findPage } from '../menus';
import { Screen } from '../screens';
import type { Tag } from '../tags';

type CachedPage = { tag: Tag; page: MenuPage };

/** Views are cached per open tab, as in the old console: without the tags view nothing is kept. */
export function useCachedPages(tags: readonly Tag[], menus: readonly MenuEntry[], tagsView: boolean): CachedPage[] {
  return useMemo(
    () =>
      (tagsView ? tags : [])
        .map((t) => ({ tag: t, page: findPage(menus, t.path.split('?')[0] ?? t.path) }))
        .filter((x): x is { tag: typeof x.tag; page: NonNullable<typeof x.page> } => !!x.page?.cached),
    [tags, menus, tagsView],
  );
}

interface StackProps {
  page: MenuPage;
  search: string;
  cachedPages: readonly CachedPage[];
  /** Changes when the area changes: the whole view mounts again with the new area. */
  viewKey: number;
  fixedHeader: boolean;
}

/** The main region: the current screen, and the cached tabs' screens kept mounted but hidden. */
export function ScreenStack({ page, search, cachedPages, viewKey, fixedHeader }: StackProps) {
  const title = useTitleOf(page.path, page.title);
  const currentCached = page.cached && cachedPages.some((c) => c.page.path === page.path);
  const screenFor = (p: MenuPage, s: string, active: boolean) => (
    <ScreenContext.Provider value={{ path: p.path, search: s, active }}>
      <Screen component={p.component} title={p.title} menuTitle={p.menuTitle} />
    </ScreenContext.Provider>
  );
  return (
    <main key={viewKey} id={MAIN_ID} tabIndex={-1} aria-label={title} className={`flex-1 outline-none ${fixedHeader ? 'min-h-0 overflow-y-auto' : ''}`}>
      {cachedPages.map(({ tag, page: p }) => (
        <div key={p.path} hidden={p.path !== page.path}>
          {screenFor(p, p.path === page.path ? search : (tag.path.split('?')[1] ?? ''), p.path === page.path)}
        </div>
      ))}
      {!currentCached && screenFor(page, search, true)}
    </main>
  );
}
