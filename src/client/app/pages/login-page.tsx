import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { safeRedirect } from '../../lib/safe-redirect';
import { armTypeAhead } from '../../lib/type-ahead';
import { useSession } from '../session';

/** Where to go after login: the `redirect` query, kept whole (path, query, hash), or `/`. */
export function redirectTarget(search: string, origin: string = window.location.origin): string {
  // Anyone can send a link to /login: the target is checked as the browser will parse it.
  return safeRedirect(new URLSearchParams(search).get('redirect'), origin);
}

export function LoginPage() {
  const session = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Keys typed here are the form's; only from submit on does a Ctrl+K wait for the console.
  useEffect(() => armTypeAhead(false), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim()) return setError('请输入用户名');
    if (!password) return setError('请输入密码');
    setBusy(true);
    setError(null);
    armTypeAhead(true);
    try {
      // The router takes a signed-in visitor of /login to the `redirect` target, in the page: no
      // reload, so a Ctrl+K typed now reaches the palette.
      await session.login(username, password);
    } catch (err) {
      armTypeAhead(false);
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-[#2d3a4b] px-4">
      <form onSubmit={submit} noValidate className="w-full max-w-sm" aria-labelledby="login-title">
        <h1 id="login-title" className="mb-8 text-center text-2xl font-semibold text-white">
          公交运营管理控制台
        </h1>
        {/* Why the last session ended: said here, where the user is after the reload (spec §8). */}
        {session.endedNotice && !error && (
          <p role="alert" className="mb-4 rounded border border-amber-300/50 bg-amber-400/10 px-3 py-2 text-sm text-amber-100">
            {session.endedNotice}
          </p>
        )}
        <label className="mb-4 block">
          <span className="mb-1 block text-sm text-gray-300">用户名</span>
          <input
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            className="w-full rounded border border-white/20 bg-[#283443] px-3 py-2.5 text-white outline-none focus-visible:ring-2 focus-visible:ring-[var(--theme)]"
          />
        </label>
        <div className="mb-2">
          <label htmlFor="login-password" className="mb-1 block text-sm text-gray-300">
            密码
          </label>
          <div className="flex">
            <input
              id="login-password"
              name="password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className="w-full rounded-l border border-white/20 bg-[#283443] px-3 py-2.5 text-white outline-none focus-visible:ring-2 focus-visible:ring-[var(--theme)]"
            />
            <button
              type="button"
              onClick={() => setShowPassword((v) => !v)}
              aria-pressed={showPassword}
              aria-label="显示密码"
              className="whitespace-nowrap rounded-r border border-l-0 border-white/20 bg-[#283443] px-3 text-xs text-gray-300 focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
            >
              {showPassword ? '隐藏' : '显示'}
            </button>
          </div>
        </div>
        <p role="alert" className="min-h-6 text-sm text-red-300">
          {error}
        </p>
        <Button type="submit" variant="primary" disabled={busy} className="mt-2 w-full justify-center py-2.5 text-base" hotkey="Enter">
          {busy ? '登录中…' : '登录'}
        </Button>
      </form>
    </main>
  );
}
