import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { type KeyboardEvent, useRef } from 'react';
import { useLocation } from 'wouter';
import { tagStore, useTags } from '../tags';

/**
 * Open pages as tabs with Refresh, Close, Close Others and Close All (spec §2). Keyboard: ←/→ move
 * between tabs, Enter opens, Delete closes, the ⋯ menu holds the rest.
 */
export function TagsView({ current }: { current: string }) {
  const tags = useTags();
  const [, navigate] = useLocation();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const activeIndex = tags.findIndex((t) => (t.path.split('?')[0] ?? t.path) === current);
  const active = tags[activeIndex];

  const close = (path: string) => {
    const next = tagStore.close(path);
    if (next && path === active?.path) navigate(next);
  };
  const refresh = (path: string) => navigate(`/redirect${path}`);

  const onKey = (e: KeyboardEvent, i: number) => {
    const move = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (move) {
      e.preventDefault();
      refs.current[(i + move + tags.length) % tags.length]?.focus();
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      const t = tags[i];
      if (!t || t.affix) return;
      e.preventDefault();
      // Focus stays in the tab list, on the neighbour that takes the closed tab's place.
      const neighbour = tags[i + 1] ?? tags[i - 1];
      close(t.path);
      setTimeout(() => {
        const at = neighbour ? tagStore.get().findIndex((x) => x.path === neighbour.path) : -1;
        refs.current[at]?.focus();
      }, 0);
    }
  };

  return (
    <div className="flex h-9 items-center gap-1 border-b border-gray-200 bg-white px-2 shadow-sm">
      <div role="tablist" aria-label="已打开的页面" className="flex flex-1 gap-1 overflow-x-auto py-1">
        {tags.map((t, i) => {
          const isActive = i === activeIndex;
          return (
            <span key={t.path} role="presentation" className={`flex shrink-0 items-center rounded-sm border text-xs ${isActive ? 'border-[var(--theme)] bg-[var(--theme-strong)] text-white' : 'border-gray-300 text-gray-600'}`}>
              <button
                ref={(el) => {
                  refs.current[i] = el;
                }}
                role="tab"
                aria-selected={isActive}
                aria-keyshortcuts={t.affix ? undefined : 'Delete'}
                tabIndex={isActive || (activeIndex === -1 && i === 0) ? 0 : -1}
                onClick={() => navigate(t.path)}
                onKeyDown={(e) => onKey(e, i)}
                className="px-2 py-0.5 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-[var(--theme)]"
              >
                {t.title}
              </button>
              {!t.affix && (
                // For the mouse only (a tab list holds tabs alone): the keyboard closes a tab with Delete.
                <span aria-hidden="true" title={`关闭 ${t.title} (Delete)`} onClick={() => close(t.path)} className="cursor-pointer pr-1.5 opacity-70 hover:opacity-100">
                  ×
                </span>
              )}
            </span>
          );
        })}
      </div>
      <Menu>
        <MenuButton aria-label="标签操作" className="rounded px-2 text-gray-500 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
          ⋯
        </MenuButton>
        <MenuItems anchor="bottom end" className="z-40 w-36 rounded border border-gray-200 bg-white py-1 text-sm shadow-lg focus:outline-none">
          {[
            { label: '刷新', run: () => active && refresh(active.path) },
            { label: '关闭', run: () => active && close(active.path), disabled: !active || active.affix },
            { label: '关闭其他', run: () => active && tagStore.closeOthers(active.path) },
            { label: '关闭所有', run: () => navigate(tagStore.closeAll()) },
          ].map((a) => (
            <MenuItem key={a.label} disabled={a.disabled}>
              <button type="button" onClick={a.run} className="block w-full px-3 py-1.5 text-left data-[focus]:bg-gray-100 data-[disabled]:opacity-40">
                {a.label}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
    </div>
  );
}
