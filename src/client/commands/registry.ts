import { type Grants, isAllowed } from '../../shared/api/permissions';
import type { Command } from './types';

export class RegistryError extends Error {}

/**
 * Joins the features' command arrays (no registration by import side effect) and refuses a
 * duplicate id or a hotkey bound twice in one scope.
 */
export function buildRegistry(...sources: readonly (readonly Command[])[]): Command[] {
  const all = sources.flat();
  const ids = new Set<string>();
  const keys = new Map<string, string>();
  for (const c of all) {
    if (ids.has(c.id)) throw new RegistryError(`命令 ID 重复：${c.id}`);
    ids.add(c.id);
    if (c.hotkey) {
      const slot = `${c.hotkeyScope ?? 'global'}:${c.hotkey.toLowerCase()}`;
      const other = keys.get(slot);
      if (other) throw new RegistryError(`快捷键 ${c.hotkey} 同时绑定了 ${other} 和 ${c.id}`);
      keys.set(slot, c.id);
    }
  }
  return all;
}

/** The commands this account may run: exactly those the server would allow. */
export const allowedCommands = (commands: readonly Command[], grants: Grants | null) =>
  commands.filter((c) => isAllowed(c.permission, grants));
