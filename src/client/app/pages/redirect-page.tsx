import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';

/**
 * /redirect/{path}: a pass-through that lands on {path} again, which remounts the screen. The tags
 * view's "refresh" uses it as /redirect{fullPath} (spec §2).
 */
export function RedirectPage({ path }: { path: string }) {
  const [, navigate] = useLocation();
  const search = useSearch();
  useEffect(() => {
    navigate(`/${path}${search ? `?${search}` : ''}`, { replace: true });
  }, [navigate, path, search]);
  return null;
}
