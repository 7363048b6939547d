import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { safeRedirect } from '../../lib/safe-redirect';

/**
 * /redirect/{path}: a pass-through that lands on {path} again, which remounts the screen. The tags
 * view's "refresh" uses it as /redirect{fullPath} (spec §2).
 */
export function RedirectPage({ path }: { path: string }) {
  const [, navigate] = useLocation();
  const search = useSearch();
  useEffect(() => {
    // The router hands {path} over percent-decoded, so `%5C` arrives as `\` and `/redirect//host`
    // as `/host`: followed as they are, `/\host` and `//host` name another origin.
    navigate(safeRedirect(`/${path}${search ? `?${search}` : ''}`), { replace: true });
  }, [navigate, path, search]);
  return null;
}
