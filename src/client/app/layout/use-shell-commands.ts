import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { type Grants, isAllowed } from '../../../shared/api/permissions';
import { type HotkeyBinding, useHotkeyDispatcher } from '../../commands/dispatcher';
import { allowedCommands } from '../../commands/registry';
import type { Command, CommandContext, ShellAction } from '../../commands/types';
import { downloadCentreOpen } from '../../lib/export-tasks';
import { loadContract } from '../../lib/contract';
import { useRevalidate } from '../../lib/revalidate';
import { sessionEndedShowing } from '../../lib/session-ended';
import { saveDistrict } from '../../lib/session-store';
import type { EntitySource } from '../../commands/entity-source';
import { jumpCommands, pageItems, shellCommands, switchDistrictCommand } from '../commands';
import { SCREENS } from '../features';
import { type MenuEntry, findPage } from '../menus';
import type { Session } from '../session';
import { updateSettings } from '../settings';
import type { useShellDialogs } from './use-shell-dialogs';

interface ShellParts {
  openPalette(): void;
  dialogs: Pick<ReturnType<typeof useShellDialogs>, 'setPassword' | 'setSettings' | 'setCheat'>;
  logout(): Promise<void>;
  toggleSidebar(): void;
  tagsView: boolean;
}

/** What the shell's commands (`shell.*`: 修改密码, 退出登录, the sidebar, the tags view…) do. */
export function useShellActions({ openPalette, dialogs: { setPassword, setSettings, setCheat }, logout, toggleSidebar, tagsView }: ShellParts) {
  // Views are cached per open tab, as in the old console: without the tags view nothing is kept.
  const toggleTags = useCallback(() => updateSettings({ tagsView: !tagsView }), [tagsView]);
  return useMemo<Record<ShellAction, () => void>>(
    () => ({
      palette: openPalette,
      'change-password': () => setPassword(true),
      settings: () => setSettings(true),
      logout: () => void logout(),
      'toggle-sidebar': toggleSidebar,
      'cheat-sheet': () => setCheat(true),
      'toggle-tags': toggleTags,
      downloads: () => downloadCentreOpen.set(true),
    }),
    [openPalette, setPassword, setSettings, setCheat, logout, toggleSidebar, toggleTags],
  );
}

/**
 * What commands run against: navigation, the area, revalidation and the shell's own actions. While
 * the session-ended notice shows, nothing navigates or opens over it.
 */
export function useCommandContext(navigate: (path: string) => void, shell: Record<ShellAction, () => void>, onDistrictChanged: () => void) {
  const { mutate } = useSWRConfig();
  const revalidate = useRevalidate();
  /** Stores the area and reloads the view: every call from now on carries it (spec §4). */
  const changeDistrict = useCallback(
    (id: string | null) => {
      saveDistrict(id);
      void mutate(() => true, undefined, { revalidate: true });
      onDistrictChanged();
    },
    [mutate, onDistrictChanged],
  );
  const ctx = useMemo<CommandContext>(
    () => ({
      navigate: (path) => !sessionEndedShowing() && navigate(path),
      setDistrict: (id) => !sessionEndedShowing() && changeDistrict(id),
      changed: (endpoint) => void revalidate(endpoint),
      shell: (action) => {
        if (!sessionEndedShowing()) shell[action]();
      },
    }),
    [navigate, changeDistrict, revalidate, shell],
  );
  return { ctx, changeDistrict };
}

/**
 * The account's commands, record sources, pages and g-jumps. Whether the account's menus hold the
 * page a path leads to (`canOpen`) checks what the palette offers, a command, a record source and
 * each record row, so nothing offered ends on /404.
 */
/** This console build has a screen for it (the server may be newer than the open console). */
const isBuilt = (component: string) => Object.hasOwn(SCREENS, component);

const loadFeatureCommands = () => import('../feature-commands');
const SHELL_ONLY = { COMMANDS: [...shellCommands, switchDistrictCommand], SOURCES: [] as readonly EntitySource[] };
/** A failed fetch of the features' commands (a network blip) is tried again this often. */
const RETRY_MS = 5_000;

/**
 * The features' commands and record sources, fetched when the shell mounts (app/feature-commands.ts:
 * they carry the contract, which the login page does not); the shell's own commands until then.
 */
function useFeatureCommands() {
  const [loaded, setLoaded] = useState<{ COMMANDS: readonly Command[]; SOURCES: readonly EntitySource[] }>(SHELL_ONLY);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      void loadFeatureCommands().then(
        (m) => live && setLoaded(m),
        () => {
          if (live) timer = setTimeout(load, RETRY_MS);
        },
      );
    load();
    // The contract too, so a change's refetch never waits for it (lib/revalidate.ts).
    void loadContract().catch(() => undefined);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  return loaded;
}

export function useShellRegistry(menus: readonly MenuEntry[], user: Session['user'], grants: Grants | null, ctx: CommandContext) {
  const loaded = useFeatureCommands();
  const { COMMANDS, SOURCES } = loaded;
  const canOpen = useCallback((path: string) => !!findPage(menus, new URL(path, window.location.origin).pathname), [menus]);
  const commands = useMemo(
    () => allowedCommands(COMMANDS, grants).filter((c) => (c.id !== 'shell.switch-district' || !!user?.openDistrict) && (c.page === null || canOpen(c.page))),
    [COMMANDS, grants, user, canOpen],
  );
  const sources = useMemo(() => SOURCES.filter((s) => isAllowed(s.permission, grants) && canOpen(s.page)), [SOURCES, grants, canOpen]);
  const pages = useMemo(() => pageItems(menus, isBuilt), [menus]);
  const jumps = useMemo(() => jumpCommands(menus, isBuilt), [menus]);
  const registry = useMemo(() => ({ commands, jumps, ctx }), [commands, jumps, ctx]);
  return { canOpen, commands, sources, registryPending: loaded === SHELL_ONLY, pages, jumps, registry };
}

/** Every hotkey is a command's: one dispatcher binds them all, none while a dialog or the ended notice is up. */
export function useCommandHotkeys(commands: readonly Command[], jumps: readonly Command[], ctx: CommandContext, location: string, off: boolean, paused: boolean) {
  const here = useRef(location);
  here.current = location;
  const bindings = useMemo<HotkeyBinding[]>(
    () =>
      [...commands, ...jumps].flatMap((c) =>
        c.hotkey
          ? [{ hotkey: c.hotkey, scope: c.hotkeyScope, whileTyping: c.whileTyping, when: c.when && (() => c.when?.({ path: here.current }) ?? true), run: () => c.run(ctx, {}) }]
          : [],
      ),
    [commands, jumps, ctx],
  );
  useHotkeyDispatcher(off ? [] : bindings, paused);
}
