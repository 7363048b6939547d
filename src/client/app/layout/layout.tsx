import { Suspense, lazy, useCallback, useContext, useEffect, useState } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { CheatSheet } from '../../commands/cheat-sheet';
import { dropHandedRowAway } from '../../components/resource/row-action';
import { RegistryContext } from '../../commands/registry-context';
import { downloadCentreOpen } from '../../lib/export-tasks';
import { focusMain, keepEarlyTableKeys, leaveFieldOnEscape, rescueLostFocus } from '../../lib/focus';
import { providePaletteOpener } from '../../lib/palette-opener';
import { GrantsContext } from '../../lib/permission';
import { useSessionEnded } from '../../lib/session-ended';
import { MOBILE_QUERY, useMediaQuery } from '../../lib/use-media';
import { SCREENS } from '../features';
import { findPage, firstPageOf, homePath } from '../menus';
import { useSession } from '../session';
import { useSettings } from '../settings';
import { useTags } from '../tags';
import { ChangePasswordDialog } from './change-password-dialog';
import { Navbar } from './navbar';
import { PasswordBanner } from './password-banner';
import { ScreenStack, useCachedPages } from './screen-stack';
import { SettingsPanel } from './settings-panel';
import { ShellSidebar } from './shell-sidebar';
import { TagsView } from './tags-view';
import { useFollowTasks } from './use-follow-tasks';
import { usePaletteLoader } from './use-palette-loader';
import { useCommandContext, useCommandHotkeys, useShellActions, useShellRegistry } from './use-shell-commands';
import { useShellDialogs } from './use-shell-dialogs';
import { useShellLogout } from './use-shell-logout';
import { useSidebar } from './use-sidebar';
import { useTagTracking } from './use-tag-tracking';
import { useTypeToSearch } from './use-type-to-search';

// 下载中心 is fetched the first time it opens: the shell's first paint does not carry it.
const DownloadCentre = lazy(() => import('./download-centre').then((m) => ({ default: m.DownloadCentre })));

/**
 * The signed-in shell: menu, navbar, tags view and the screen, with the palette, hotkeys and the
 * shell's dialogs. The state lives in its hooks (use-*.ts beside this file); this joins them.
 */
export function Layout() {
  const session = useSession();
  const settings = useSettings();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const sidebar = useSidebar(mobile);
  const dialogs = useShellDialogs();
  const [viewKey, setViewKey] = useState(0);
  const palette = usePaletteLoader();
  const { centreOpen, openTasks } = useFollowTasks();
  const grants = useContext(GrantsContext);
  const tags = useTags();
  const ended = useSessionEnded();

  // The session-ended notice is the top of the stack: what was open beneath it closes, and nothing
  // opens over it (no palette, hotkey or command) until the user logs in again.
  const { setOpen: setPaletteOpen } = palette;
  const { closeAll: closeDialogs } = dialogs;
  const { setMobileOpen } = sidebar;
  useEffect(() => {
    if (!ended) return;
    setPaletteOpen(false);
    closeDialogs();
    setMobileOpen(false);
  }, [ended, setPaletteOpen, closeDialogs, setMobileOpen]);

  // After moving to another page the hands start in its main region, not on the link used. Only
  // the path counts: paging, sorting and filtering change the query and keep focus where it is.
  useEffect(() => {
    const timer = setTimeout(focusMain, 0);
    return () => clearTimeout(timer);
  }, [location]);
  useEffect(rescueLostFocus, []);
  useEffect(leaveFieldOnEscape, []);
  useEffect(keepEarlyTableKeys, []);
  // A row the palette handed to a page's dialog is for that page, reached now: anywhere else drops it.
  useEffect(() => dropHandedRowAway(location), [location]);

  const { menus, user } = session;
  const page = findPage(menus, location);
  const home = homePath(menus, (component) => Object.hasOwn(SCREENS, component));
  useTagTracking(user, menus, home, page, location, search);
  const logout = useShellLogout(session);

  // A table row's 合并到… opens the palette in its step (row-action.ts requestChoice).
  const { show: showPalette } = palette;
  useEffect(() => providePaletteOpener(showPalette), [showPalette]);
  const shell = useShellActions({ openPalette: palette.show, dialogs, logout, toggleSidebar: sidebar.toggle, tagsView: settings.tagsView });
  const { ctx, changeDistrict } = useCommandContext(navigate, shell, useCallback(() => setViewKey((k) => k + 1), []));
  const { canOpen, commands, sources, registryPending, pages, jumps, registry } = useShellRegistry(menus, user, grants, ctx);
  useCommandHotkeys(commands, jumps, ctx, location, !!ended, palette.open || dialogs.anyOpen || centreOpen);
  useTypeToSearch(!ended && !palette.open && !dialogs.anyOpen && !centreOpen, palette.openWith);
  const cachedPages = useCachedPages(tags, menus, settings.tagsView);

  if (location === '/' || location === '') return <Redirect to={home} replace />;
  if (!page) {
    // A menu's own address (/user) opens its first page, as its auth item's `redirect` says.
    const first = firstPageOf(menus.find((m) => location === `/${m.id}` || location === `/${m.id}/`));
    return <Redirect to={first ? `${first.path}${search ? `?${search}` : ''}` : '/404'} replace />;
  }

  const { PaletteView } = palette;
  return (
    <RegistryContext.Provider value={registry}>
      <div className="flex h-screen overflow-hidden bg-[#f0f2f5]">
        <a href="#main" className="sr-only z-50 rounded bg-white px-3 py-2 text-sm text-[var(--theme-strong)] shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
          跳到内容
        </a>
        <ShellSidebar mobile={mobile} menus={menus} current={location} desktopOpen={sidebar.desktopOpen} mobileOpen={sidebar.mobileOpen} onCloseMobile={() => setMobileOpen(false)} />
        <div className={`flex min-w-0 flex-1 flex-col ${settings.fixedHeader ? 'overflow-hidden' : 'overflow-y-auto'}`}>
          <div className="shrink-0">
            <Navbar
              page={page}
              userName={user?.firstName || user?.login || ''}
              openDistrict={!!user?.openDistrict}
              sidebarOpen={sidebar.open}
              onToggleSidebar={sidebar.toggle}
              onChangeDistrict={changeDistrict}
              onChangePassword={() => dialogs.setPassword(true)}
              onOpenSettings={() => dialogs.setSettings(true)}
              openTasks={openTasks}
              onOpenDownloads={() => downloadCentreOpen.set(true)}
              onLogout={logout}
            />
            {settings.tagsView && <TagsView current={location} />}
          </div>
          {session.passwordAge !== null && (
            <PasswordBanner seconds={session.passwordAge} onClose={session.dismissPasswordBanner} onChange={() => dialogs.setPassword(true)} />
          )}
          <ScreenStack page={page} search={search} cachedPages={cachedPages} viewKey={viewKey} fixedHeader={settings.fixedHeader} />
        </div>
        <ChangePasswordDialog open={dialogs.password} onClose={() => dialogs.setPassword(false)} onChanged={logout} />
        <SettingsPanel open={dialogs.settings} onClose={() => dialogs.setSettings(false)} />
        {centreOpen && !ended && (
          <Suspense fallback={null}>
            <DownloadCentre open onClose={() => downloadCentreOpen.set(false)} />
          </Suspense>
        )}
        {PaletteView && (
          <PaletteView
            open={palette.open}
            seed={palette.seed}
            onClose={() => setPaletteOpen(false)}
            login={user?.login ?? ''}
            commands={commands}
            pages={pages}
            sources={sources}
            registryPending={registryPending}
            canOpen={canOpen}
            ctx={ctx}
          />
        )}
        <CheatSheet open={dialogs.cheat} onClose={() => dialogs.setCheat(false)} commands={commands} jumps={jumps} />
      </div>
    </RegistryContext.Provider>
  );
}
