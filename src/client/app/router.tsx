import { useEffect } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { Layout } from './layout/layout';
import { ErrorPage } from './pages/error-page';
import { LoginPage, redirectTarget } from './pages/login-page';
import { RedirectPage } from './pages/redirect-page';
import { useSession } from './session';

/** Public routes, then the guard: everything else needs a session (spec §2). */
export function AppRoutes() {
  const session = useSession();
  const [location] = useLocation();
  const search = useSearch();

  useEffect(() => {
    window.scrollTo(0, 0);
    document.getElementById('main')?.scrollTo?.(0, 0);
  }, [location]);

  if (session.status === 'checking') {
    return <p className="p-6 text-sm text-gray-600" role="status">正在加载…</p>;
  }
  return (
    <Switch>
      <Route path="/login">{session.status === 'ready' ? <Redirect to={redirectTarget(search)} replace /> : <LoginPage />}</Route>
      <Route path="/404">
        <ErrorPage code={404} />
      </Route>
      <Route path="/401">
        <ErrorPage code={401} />
      </Route>
      <Route path="/auth-redirect">
        <Redirect to="/" replace />
      </Route>
      <Route path="/redirect/*">{(params) => <RedirectPage path={params['*'] ?? ''} />}</Route>
      <Route>
        {session.status === 'ready' ? (
          <Layout />
        ) : (
          <Redirect to={`/login?redirect=${encodeURIComponent(location + (search ? `?${search}` : '') + window.location.hash)}`} replace />
        )}
      </Route>
    </Switch>
  );
}
