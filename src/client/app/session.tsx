import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import * as auth from '../../shared/api/auth';
import type { AuthItem, UserInfo } from '../../shared/api/auth';
import * as system from '../../shared/api/system';
import { toast } from '../lib/toast';
import { api } from '../lib/api-client';
import { ApiError, SessionEndedError } from '../lib/errors';
import { takeFlash } from '../lib/flash';
import { GrantsContext } from '../lib/permission';
import { clearSession, readExpiredToken, readToken, saveToken } from '../lib/session-store';
import { KEYS, readJson, remove, writeJson } from '../lib/storage';
import { type MenuEntry, buildMenus, buttonKeysOf, menuIdsOf } from './menus';

interface StoredProfile {
  user: UserInfo;
  items: AuthItem[];
  /** Seconds since the password was changed, while the banner is not dismissed. */
  passwordAge: number | null;
}

export interface Session {
  status: 'checking' | 'anonymous' | 'ready';
  user: UserInfo | null;
  menus: MenuEntry[];
  buttons: string[];
  passwordAge: number | null;
  /**
   * Why the last session ended (账号已在其他地方登录, 登录已过期), for the login page to say: read
   * once per page load, from the notice that preceded the reload or from the start-up check.
   */
  endedNotice: string | null;
  login(username: string, password: string): Promise<void>;
  logout(opts?: { callServer?: boolean }): Promise<void>;
  dismissPasswordBanner(): void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

export const LOGIN_EXPIRED_MSG = '登录已过期，请重新登录';

/** Loads user info and menus after a token is stored; refuses an account with no authority (spec §5). */
async function loadProfile(passwordAge: number | null): Promise<StoredProfile> {
  const user = await api.call(auth.currentUser, {}, { silent: true, sessionCheck: true });
  if (!user.authority.length) throw new Error('未设置权限，登陆失败');
  const items = await api.call(auth.authItems, {}, { silent: true, sessionCheck: true });
  const profile = { user, items, passwordAge };
  writeJson(KEYS.user, profile);
  // The city centre is kept for the map screens; a failed load is only logged (spec §8).
  api
    .call(system.cityLocation, {}, { silent: true })
    .then((loc) => writeJson(KEYS.location, loc))
    .catch((err: unknown) => console.warn('city location not loaded', err));
  return profile;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Session['status']>('checking');
  const [profile, setProfile] = useState<StoredProfile | null>(null);
  const [endedNotice, setEndedNotice] = useState<string | null>(null);

  const end = useCallback(() => {
    clearSession();
    setProfile(null);
    setStatus('anonymous');
  }, []);

  useEffect(() => {
    const flash = takeFlash();
    if (flash?.kind === 'session') setEndedNotice(flash.msg);
    else if (flash) (flash.kind === 'success' ? toast.success : toast.error)(flash.msg);
    const token = readToken();
    if (!token) {
      // Checked on start (spec §9): a deadline that passed while the console was closed.
      if (readExpiredToken() && flash?.kind !== 'session') setEndedNotice(LOGIN_EXPIRED_MSG);
      end();
      return;
    }
    const stored = readJson<StoredProfile>(KEYS.user);
    loadProfile(stored?.passwordAge ?? null)
      .then((p) => {
        setProfile(p);
        setStatus('ready');
      })
      .catch((err: unknown) => {
        // A stored token the server no longer knows: the login page says why, in the server's
        // terms (a newer login elsewhere, or simply expired), once; no dialog, whose reload would
        // meet the same token again. Anything else is a route-guard failure: the message or
        // 'Has Error', then to login (spec §8).
        if (err instanceof SessionEndedError) setEndedNotice(err.message);
        else toast.error(err instanceof Error && err.message ? err.message : 'Has Error');
        end();
      });
  }, [end]);

  const login = useCallback(async (username: string, password: string) => {
    try {
      const res = await api.call(auth.authenticate, { body: { username: username.trim(), password } }, { silent: true });
      saveToken(res.idToken, res.tokenExpiredSecond);
      const p = await loadProfile(res.passwordIsExpired ? res.passwordExpiredSecond : null);
      setEndedNotice(null);
      setProfile(p);
      setStatus('ready');
    } catch (err) {
      clearSession();
      const msg = err instanceof Error ? err.message : '未知错误';
      throw new Error(err instanceof ApiError ? `登录失败，${msg}，请重新的登录` : msg);
    }
  }, []);

  const logout = useCallback(
    async ({ callServer = true } = {}) => {
      // A 401 here (a password change has just ended every session) is no news: no notice.
      if (callServer && readToken()) await api.call(auth.logout, {}, { silent: true, sessionCheck: true }).catch(() => undefined);
      if (profile) remove(KEYS.tags(profile.user.login));
      end();
    },
    [end, profile],
  );

  const dismissPasswordBanner = useCallback(() => {
    setProfile((p) => {
      if (!p) return p;
      const next = { ...p, passwordAge: null };
      writeJson(KEYS.user, next);
      return next;
    });
  }, []);

  const value = useMemo<Session>(() => {
    const roles = profile?.user.authority.map((a) => a.name) ?? [];
    return {
      status,
      user: profile?.user ?? null,
      menus: profile ? buildMenus(profile.items, roles) : [],
      buttons: profile ? buttonKeysOf(profile.items) : [],
      passwordAge: profile?.passwordAge ?? null,
      endedNotice,
      login,
      logout,
      dismissPasswordBanner,
    };
  }, [status, profile, endedNotice, login, logout, dismissPasswordBanner]);

  const menuIds = useMemo(() => (profile ? menuIdsOf(profile.items) : []), [profile]);
  const grants = useMemo(() => (value.user ? { roles: value.user.authority.map((a) => a.name), buttons: value.buttons, menus: menuIds } : null), [value.user, value.buttons, menuIds]);

  return (
    <SessionContext.Provider value={value}>
      <GrantsContext.Provider value={grants}>{children}</GrantsContext.Provider>
    </SessionContext.Provider>
  );
}
