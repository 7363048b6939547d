import { useEffect } from 'react';
import { createStore, useStore } from './store';
import { useScreenLocation } from './screen-context';

/**
 * A page's title as the screen knows it, when it is more precise than its menu item's: 规则编辑
 * opened without a record is 新增规则. Kept by path, so a cached tab keeps its own.
 */
const titles = createStore<Readonly<Record<string, string>>>({});

/** The screen names itself (the breadcrumb's last part, the page's `<h1>`, the main region's name). */
export function useScreenTitle(title: string): void {
  const { path } = useScreenLocation();
  useEffect(() => {
    titles.set((prev) => ({ ...prev, [path]: title }));
    return () =>
      titles.set((prev) => {
        if (prev[path] !== title) return prev;
        const { [path]: _gone, ...rest } = prev;
        return rest;
      });
  }, [path, title]);
}

/** The title to show for a page: its screen's own, else its menu item's. */
export function useTitleOf(path: string | undefined, fallback: string): string {
  const all = useStore(titles);
  return (path !== undefined && all[path]) || fallback;
}
