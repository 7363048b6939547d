import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import type { AuthItem } from '../../../../shared/api';

export interface TreeNode {
  item: AuthItem;
  children: TreeNode[];
}

/** A top item is a menu; a `menu` item under it is a page in the sidebar, a `page` one is reached from a screen. */
const kindOf = (item: AuthItem, level: number) =>
  item.type === 'button' ? '按钮' : level === 1 ? '菜单' : item.type === 'page' ? '隐藏页' : '页面';

const titleOf = (item: AuthItem) => {
  try {
    const t = (JSON.parse(item.para) as { title?: unknown }).title;
    return typeof t === 'string' && t ? t : item.name;
  } catch {
    return item.name;
  }
};

/**
 * Menus with their pages, then the buttons filed under them (a button's parent is its menu).
 * Items whose parent is unknown stay at the top, so nothing the server holds is hidden.
 */
export function buildTree(items: readonly AuthItem[]): TreeNode[] {
  const byParent = new Map<string, AuthItem[]>();
  for (const i of items) if (i.parentId) byParent.set(i.parentId, [...(byParent.get(i.parentId) ?? []), i]);
  const ids = new Set(items.map((i) => i.id));
  const order = (a: AuthItem, b: AuthItem) => (a.type === 'button' ? 1 : 0) - (b.type === 'button' ? 1 : 0) || a.sort - b.sort;
  const node = (item: AuthItem): TreeNode => ({ item, children: (byParent.get(item.id) ?? []).sort(order).map(node) });
  return items
    .filter((i) => !i.parentId || !ids.has(i.parentId))
    .sort((a, b) => a.sort - b.sort)
    .map(node);
}

const leavesOf = (n: TreeNode): string[] => (n.children.length ? n.children.flatMap(leavesOf) : [n.item.id]);

export type CheckState = 'true' | 'false' | 'mixed';

function stateOf(n: TreeNode, selected: ReadonlySet<string>): CheckState {
  if (!n.children.length) return selected.has(n.item.id) ? 'true' : 'false';
  const leaves = leavesOf(n);
  const on = leaves.filter((id) => selected.has(id)).length;
  return on === 0 ? 'false' : on === leaves.length ? 'true' : 'mixed';
}

/**
 * What a group stores: the chosen leaves plus every menu with at least one chosen child, since the
 * console builds a menu only when its own item is granted too.
 */
export function itemIdsOf(tree: readonly TreeNode[], selected: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (n: TreeNode) => {
    if (!n.children.length) {
      if (selected.has(n.item.id)) out.push(n.item.id);
      return;
    }
    if (stateOf(n, selected) !== 'false') out.push(n.item.id);
    n.children.forEach(walk);
  };
  tree.forEach(walk);
  return out;
}

interface ItemTreeProps {
  tree: readonly TreeNode[];
  selected: ReadonlySet<string>;
  onChange(next: Set<string>): void;
  label: string;
}

/**
 * A tri-state check-box tree (WAI-ARIA tree pattern): ↑/↓ move, → opens or enters, ← closes or
 * goes to the parent, Home/End, Space toggles a node and everything under it.
 */
export function ItemTree({ tree, selected, onChange, label }: ItemTreeProps) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [focusId, setFocusId] = useState<string | null>(tree[0]?.item.id ?? null);
  const refs = useRef(new Map<string, HTMLLIElement>());

  // Rows in screen order with their parent: what the arrow keys walk.
  const visible = useMemo(() => {
    const out: { node: TreeNode; parent: string | null; level: number }[] = [];
    const walk = (n: TreeNode, parent: string | null, level: number) => {
      out.push({ node: n, parent, level });
      if (open.has(n.item.id)) n.children.forEach((c) => walk(c, n.item.id, level + 1));
    };
    tree.forEach((n) => walk(n, null, 1));
    return out;
  }, [tree, open]);

  const focus = (id: string) => {
    setFocusId(id);
    refs.current.get(id)?.focus();
  };
  const setOpenFor = (id: string, on: boolean) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const toggle = (n: TreeNode) => {
    const next = new Set(selected);
    const on = stateOf(n, selected) !== 'true';
    for (const id of leavesOf(n)) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange(next);
  };

  const onKey = (e: KeyboardEvent, index: number) => {
    const row = visible[index];
    if (!row || e.target !== e.currentTarget) return;
    const { node, parent } = row;
    const id = node.item.id;
    const expandable = node.children.length > 0;
    const go = (i: number) => {
      const target = visible[Math.max(0, Math.min(visible.length - 1, i))];
      if (target) focus(target.node.item.id);
    };
    switch (e.key) {
      case 'ArrowDown':
        go(index + 1);
        break;
      case 'ArrowUp':
        go(index - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(visible.length - 1);
        break;
      case 'ArrowRight':
        if (expandable && !open.has(id)) setOpenFor(id, true);
        else if (expandable) go(index + 1);
        break;
      case 'ArrowLeft':
        if (expandable && open.has(id)) setOpenFor(id, false);
        else if (parent) focus(parent);
        break;
      case ' ':
        toggle(node);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const current = visible.some((r) => r.node.item.id === focusId) ? focusId : (visible[0]?.node.item.id ?? null);

  return (
    <div>
      <div className="mb-2 flex flex-wrap gap-2 text-xs">
        <button type="button" className="rounded border border-gray-300 px-2 py-0.5 hover:border-[var(--theme)] focus-visible:outline-2 focus-visible:outline-[var(--theme)]" onClick={() => setOpen(new Set(tree.map((n) => n.item.id)))}>
          全部展开
        </button>
        <button type="button" className="rounded border border-gray-300 px-2 py-0.5 hover:border-[var(--theme)] focus-visible:outline-2 focus-visible:outline-[var(--theme)]" onClick={() => setOpen(new Set())}>
          全部收起
        </button>
        <button type="button" className="rounded border border-gray-300 px-2 py-0.5 hover:border-[var(--theme)] focus-visible:outline-2 focus-visible:outline-[var(--theme)]" onClick={() => onChange(new Set(tree.flatMap(leavesOf)))}>
          全选
        </button>
        <button type="button" className="rounded border border-gray-300 px-2 py-0.5 hover:border-[var(--theme)] focus-visible:outline-2 focus-visible:outline-[var(--theme)]" onClick={() => onChange(new Set())}>
          清空
        </button>
      </div>
      <ul role="tree" aria-label={label} className="max-h-[45vh] overflow-y-auto rounded border border-gray-200 py-1 text-sm">
        {visible.map(({ node, level }, index) => {
          const id = node.item.id;
          const state = stateOf(node, selected);
          const expandable = node.children.length > 0;
          const leaves = expandable ? leavesOf(node) : [];
          return (
            <li
              key={id}
              ref={(el) => {
                if (el) refs.current.set(id, el);
                else refs.current.delete(id);
              }}
              role="treeitem"
              aria-level={level}
              aria-checked={state}
              aria-expanded={expandable ? open.has(id) : undefined}
              tabIndex={id === current ? 0 : -1}
              onKeyDown={(e) => onKey(e, index)}
              onFocus={(e) => {
                if (e.target === e.currentTarget) setFocusId(id);
              }}
              className="flex cursor-default items-center gap-1.5 py-1 pr-2 hover:bg-gray-50 focus-visible:bg-[#ecf5ff] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-[var(--theme)]"
              style={{ paddingLeft: 8 + (level - 1) * 22 }}
            >
              <span
                aria-hidden="true"
                onClick={() => expandable && setOpenFor(id, !open.has(id))}
                className={`grid size-4 shrink-0 place-items-center text-[10px] text-gray-500 ${expandable ? 'cursor-pointer' : ''}`}
              >
                {expandable ? (open.has(id) ? '▼' : '▶') : ''}
              </span>
              <span
                aria-hidden="true"
                onClick={() => {
                  focus(id);
                  toggle(node);
                }}
                className={`grid size-4 shrink-0 cursor-pointer place-items-center rounded-sm border text-[11px] leading-none text-white ${state === 'false' ? 'border-gray-400 bg-white' : 'border-[var(--theme)] bg-[var(--theme-strong)]'}`}
              >
                {state === 'true' ? '✓' : state === 'mixed' ? '−' : ''}
              </span>
              <span
                className="min-w-0 flex-1 truncate"
                onClick={() => {
                  focus(id);
                  toggle(node);
                }}
              >
                {titleOf(node.item)}
              </span>
              <span className={`shrink-0 rounded px-1 text-[11px] ${node.item.type === 'button' ? 'bg-orange-50 text-orange-700' : level === 1 ? 'bg-blue-50 text-blue-600' : 'bg-gray-100 text-gray-600'}`}>
                {kindOf(node.item, level)}
              </span>
              {expandable && (
                <span className="shrink-0 text-xs tabular-nums text-gray-500">
                  {leaves.filter((l) => selected.has(l)).length}/{leaves.length}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="mt-1 text-xs text-gray-500">↑/↓ 移动，→/← 展开或收起，空格 勾选/取消</p>
    </div>
  );
}
