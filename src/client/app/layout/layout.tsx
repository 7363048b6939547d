import { Dialog, DialogPanel } from '@headlessui/react';
import { type ComponentType, Suspense, lazy, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { isAllowed } from '../../../shared/api';
import { CheatSheet } from '../../commands/cheat-sheet';
import type { PaletteProps } from '../../commands/palette';
import { type HotkeyBinding, useHotkeyDispatcher } from '../../commands/dispatcher';
import { RegistryContext } from '../../commands/registry-context';
import { allowedCommands } from '../../commands/registry';
import type { CommandContext } from '../../commands/types';
import { GrantsContext } from '../../lib/permission';
import { jumpCommands, pageItems } from '../commands';
import { COMMANDS, SCREENS, SOURCES } from '../features';
import { useSWRConfig } from 'swr';
import { Redirect, useLocation, useSearch } from 'wouter';
import { toast } from '../../lib/toast';
import { setFlash } from '../../lib/flash';
import { ScreenContext } from '../../lib/screen-context';
import { MAIN_ID, focusMain, rescueLostFocus } from '../../lib/focus';
import { loginAddress, sessionEndedShowing, useSessionEnded } from '../../lib/session-ended';
import { saveDistrict } from '../../lib/session-store';
import { type TypeAhead, claimTypeAhead } from '../../lib/type-ahead';
import { readCookie, writeCookie } from '../../lib/storage';
import { MOBILE_QUERY, useMediaQuery } from '../../lib/use-media';
import { useInactivityLogout, useLogoutAcrossTabs } from '../activity';
import { findPage, firstPageOf, homePath } from '../menus';
import { Screen } from '../screens';
import { LOGIN_EXPIRED_MSG, useSession } from '../session';
import { updateSettings, useSettings } from '../settings';
import { tagStore, useTags } from '../tags';
import { ChangePasswordDialog } from './change-password-dialog';
import { Navbar } from './navbar';
import { PasswordBanner } from './password-banner';
import { SettingsPanel } from './settings-panel';
import { downloadCentreOpen, ensureFollowingTasks, resumeTasks, stopTasks, taskStore } from '../../lib/export-tasks';
import { isOpenTask } from '../../../shared/api/export-task';
import { useStore } from '../../lib/store';
import { Sidebar } from './sidebar';
import { TagsView } from './tags-view';

const SIDEBAR_COOKIE = 'sidebarStatus';
const loadPalette = () => import('../../commands/palette');
// 下载中心 is fetched the first time it opens: the shell's first paint does not carry it.
const DownloadCentre = lazy(() => import('./download-centre').then((m) => ({ default: m.DownloadCentre })));

export function Layout() {
  const session = useSession();
  const settings = useSettings();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const { mutate } = useSWRConfig();
  const [desktopOpen, setDesktopOpen] = useState(() => readCookie(SIDEBAR_COOKIE) !== '0');
  const [mobileOpen, setMobileOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [viewKey, setViewKey] = useState(0);
  // The palette (cmdk) is fetched as soon as the shell mounts, its pinyin dictionary after it. Until
  // it is here, index.html's type-ahead keeps Ctrl+K and the keys after it; then the palette opens
  // with them, so no key is lost however fast the hands are after login or F5.
  const [PaletteView, setPaletteView] = useState<ComponentType<PaletteProps> | null>(null);
  const paletteLoaded = useRef(false);
  /** Loads the palette chunk and shows it; false when the network failed. */
  const fetchPalette = useCallback(
    () =>
      loadPalette().then(
        (m) => {
          paletteLoaded.current = true;
          setPaletteView(() => m.Palette);
          return true;
        },
        () => false,
      ),
    [],
  );
  const [paletteSeed, setPaletteSeed] = useState<TypeAhead | null>(null);
  const [paletteOpen, setPaletteOpen] = useState(false);
  useEffect(() => {
    let live = true;
    void fetchPalette().then((loaded) => {
      if (!live) return;
      // Without a palette the buffered keys have nowhere to go: the type-ahead is let go either way.
      const typed = claimTypeAhead();
      if (!loaded || !typed) return;
      setPaletteSeed(typed);
      setPaletteOpen(true);
    });
    return () => {
      live = false;
    };
  }, [fetchPalette]);
  const [cheatOpen, setCheatOpen] = useState(false);
  const centreOpen = useStore(downloadCentreOpen);
  const openTasks = useStore(taskStore).tasks.filter(isOpenTask).length;
  // A task still under way from before sign-in (or F5) is followed again once the first screen has
  // had the network; otherwise the stream opens with the first export or the centre.
  useEffect(() => {
    const timer = setTimeout(() => void resumeTasks(), 2_000);
    return () => {
      clearTimeout(timer);
      stopTasks();
    };
  }, []);
  useEffect(() => {
    if (centreOpen) ensureFollowingTasks();
  }, [centreOpen]);
  const grants = useContext(GrantsContext);
  const tags = useTags();
  const ended = useSessionEnded();

  // The session-ended notice is the top of the stack: what was open beneath it closes, and nothing
  // opens over it (no palette, hotkey or command) until the user logs in again.
  useEffect(() => {
    if (!ended) return;
    setPaletteOpen(false);
    setCheatOpen(false);
    setPasswordOpen(false);
    setSettingsOpen(false);
    setMobileOpen(false);
  }, [ended]);

  // After moving to another page the hands start in its main region, not on the link used. Only
  // the path counts: paging, sorting and filtering change the query and keep focus where it is.
  useEffect(() => {
    const timer = setTimeout(focusMain, 0);
    return () => clearTimeout(timer);
  }, [location]);
  useEffect(rescueLostFocus, []);

  const { menus, user } = session;
  const page = findPage(menus, location);
  const home = homePath(menus, (component) => Object.hasOwn(SCREENS, component));
  const sidebarOpen = mobile ? mobileOpen : desktopOpen;

  useEffect(() => {
    const homePage = findPage(menus, home);
    if (user) tagStore.load(user.login, homePage ? { path: home, title: homePage.title } : null);
  }, [user, menus, home]);

  useEffect(() => {
    if (page) tagStore.visit({ path: location + (search ? `?${search}` : ''), title: page.title });
  }, [page, location, search]);

  useEffect(() => {
    if (!mobile) setMobileOpen(false);
  }, [mobile]);


  const logout = useCallback(async () => {
    await session.logout();
    window.location.assign('/login');
  }, [session]);

  useInactivityLogout(
    useCallback(() => {
      // Shown after the reload that the logout makes, so it is actually read.
      setFlash(LOGIN_EXPIRED_MSG, 'session');
      void logout();
    }, [logout]),
  );
  // To /login with this page as the way back, as the tab that was told goes.
  useLogoutAcrossTabs(useCallback(() => window.location.assign(loginAddress()), []));

  const toggleSidebar = useCallback(() => {
    if (mobile) return setMobileOpen((v) => !v);
    setDesktopOpen((v) => {
      writeCookie(SIDEBAR_COOKIE, v ? '0' : '1');
      return !v;
    });
  }, [mobile]);

  /** Stores the area and reloads the view: every call from now on carries it (spec §4). */
  const changeDistrict = useCallback(
    (id: string | null) => {
      saveDistrict(id);
      void mutate(() => true, undefined, { revalidate: true });
      setViewKey((k) => k + 1);
    },
    [mutate],
  );

  // Views are cached per open tab, as in the old console: without the tags view nothing is kept.
  const toggleTags = useCallback(() => updateSettings({ tagsView: !settings.tagsView }), [settings.tagsView]);
  const commandContext = useMemo<CommandContext>(
    () => ({
      navigate: (path) => !sessionEndedShowing() && navigate(path),
      setDistrict: (id) => !sessionEndedShowing() && changeDistrict(id),
      revalidate: (endpoints) => {
        const stale = new Set(endpoints.map((e) => e.id));
        void mutate((key) => Array.isArray(key) && stale.has(key[0] as string));
      },
      shell: (action) => {
        if (sessionEndedShowing()) return;
        if (action === 'palette') {
          setPaletteSeed(null);
          setPaletteOpen(true);
          // A palette chunk that failed to load (a network blip) is fetched again when asked for.
          if (!paletteLoaded.current) void fetchPalette().then((loaded) => loaded || toast.error('命令面板加载失败，请检查网络后重试'));
        } else if (action === 'change-password') setPasswordOpen(true);
        else if (action === 'settings') setSettingsOpen(true);
        else if (action === 'logout') void logout();
        else if (action === 'toggle-sidebar') toggleSidebar();
        else if (action === 'cheat-sheet') setCheatOpen(true);
        else if (action === 'toggle-tags') toggleTags();
        else if (action === 'downloads') downloadCentreOpen.set(true);
      },
    }),
    [navigate, logout, toggleTags, changeDistrict, toggleSidebar, fetchPalette, mutate],
  );
  // Whether the account's menus hold the page a path leads to: what the palette offers, a command,
  // a record source and each record row, is checked against it, so nothing offered ends on /404.
  const canOpen = useCallback((path: string) => !!findPage(menus, new URL(path, window.location.origin).pathname), [menus]);
  const commands = useMemo(
    () => allowedCommands(COMMANDS, grants).filter((c) => (c.id !== 'shell.switch-district' || !!user?.openDistrict) && (c.page === null || canOpen(c.page))),
    [grants, user, canOpen],
  );
  const sources = useMemo(() => SOURCES.filter((s) => isAllowed(s.permission, grants) && canOpen(s.page)), [grants, canOpen]);
  const pages = useMemo(() => pageItems(menus), [menus]);
  const jumps = useMemo(() => jumpCommands(menus), [menus]);
  const registry = useMemo(() => ({ commands, jumps, ctx: commandContext }), [commands, jumps, commandContext]);

  // Every hotkey is a command's: one dispatcher binds them all from the registry.
  const here = useRef(location);
  here.current = location;
  const bindings = useMemo<HotkeyBinding[]>(
    () =>
      [...commands, ...jumps].flatMap((c) =>
        c.hotkey
          ? [{ hotkey: c.hotkey, scope: c.hotkeyScope, whileTyping: c.whileTyping, when: c.when && (() => c.when?.({ path: here.current }) ?? true), run: () => c.run(commandContext, {}) }]
          : [],
      ),
    [commands, jumps, commandContext],
  );
  useHotkeyDispatcher(ended ? [] : bindings, paletteOpen || cheatOpen || passwordOpen || settingsOpen || centreOpen);

  const cachedPages = useMemo(
    () =>
      (settings.tagsView ? tags : [])
        .map((t) => ({ tag: t, page: findPage(menus, t.path.split('?')[0] ?? t.path) }))
        .filter((x): x is { tag: typeof x.tag; page: NonNullable<typeof x.page> } => !!x.page?.cached),
    [tags, menus, settings.tagsView],
  );

  if (location === '/' || location === '') return <Redirect to={home} replace />;
  if (!page) {
    // A menu's own address (/user) opens its first page, as its auth item's `redirect` says.
    const first = firstPageOf(menus.find((m) => location === `/${m.id}` || location === `/${m.id}/`));
    return <Redirect to={first ? `${first.path}${search ? `?${search}` : ''}` : '/404'} replace />;
  }

  const currentCached = page.cached && cachedPages.some((c) => c.page.path === page.path);
  const screenFor = (p: typeof page, s: string, active: boolean) => (
    <ScreenContext.Provider value={{ path: p.path, search: s, active }}>
      <Screen component={p.component} title={p.title} menuTitle={p.menuTitle} />
    </ScreenContext.Provider>
  );

  return (
    <RegistryContext.Provider value={registry}>
    <div className="flex h-screen overflow-hidden bg-[#f0f2f5]">
      <a href="#main" className="sr-only z-50 rounded bg-white px-3 py-2 text-sm text-[var(--theme-strong)] shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        跳到内容
      </a>
      {mobile ? (
        // On a phone the menu is a drawer dialog: focus moves in and stays, Esc closes, focus returns.
        <Dialog open={mobileOpen} onClose={() => setMobileOpen(false)} aria-label="菜单" className="relative z-40">
          <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
          <DialogPanel className="fixed inset-y-0 left-0 shadow-xl">
            <Sidebar menus={menus} current={location} collapsed={false} mobile onNavigate={() => setMobileOpen(false)} />
          </DialogPanel>
        </Dialog>
      ) : (
        <aside className="shrink-0">
          <Sidebar menus={menus} current={location} collapsed={!desktopOpen} mobile={false} onNavigate={() => undefined} />
        </aside>
      )}
      <div className={`flex min-w-0 flex-1 flex-col ${settings.fixedHeader ? 'overflow-hidden' : 'overflow-y-auto'}`}>
        <div className="shrink-0">
          <Navbar
            page={page}
            userName={user?.firstName || user?.login || ''}
            openDistrict={!!user?.openDistrict}
            sidebarOpen={sidebarOpen}
            onToggleSidebar={toggleSidebar}
            onChangeDistrict={changeDistrict}
            onChangePassword={() => setPasswordOpen(true)}
            onOpenSettings={() => setSettingsOpen(true)}
            openTasks={openTasks}
            onOpenDownloads={() => downloadCentreOpen.set(true)}
            onLogout={logout}
          />
          {settings.tagsView && <TagsView current={location} />}
        </div>
        {session.passwordAge !== null && (
          <PasswordBanner seconds={session.passwordAge} onClose={session.dismissPasswordBanner} onChange={() => setPasswordOpen(true)} />
        )}
        <main key={viewKey} id={MAIN_ID} tabIndex={-1} aria-label={page.title} className={`flex-1 outline-none ${settings.fixedHeader ? 'overflow-y-auto' : ''}`}>
          {cachedPages.map(({ tag, page: p }) => (
            <div key={p.path} hidden={p.path !== page.path}>
              {screenFor(p, p.path === page.path ? search : (tag.path.split('?')[1] ?? ''), p.path === page.path)}
            </div>
          ))}
          {!currentCached && screenFor(page, search, true)}
        </main>
      </div>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} onChanged={logout} />
      <SettingsPanel open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      {centreOpen && !ended && (
        <Suspense fallback={null}>
          <DownloadCentre open onClose={() => downloadCentreOpen.set(false)} />
        </Suspense>
      )}
      {PaletteView && (
        <PaletteView
          open={paletteOpen}
          seed={paletteSeed}
          onClose={() => setPaletteOpen(false)}
          login={user?.login ?? ''}
          commands={commands}
          pages={pages}
          sources={sources}
          canOpen={canOpen}
          ctx={commandContext}
        />
      )}
      <CheatSheet open={cheatOpen} onClose={() => setCheatOpen(false)} commands={commands} jumps={jumps} />
    </div>
    </RegistryContext.Provider>
  );
}
