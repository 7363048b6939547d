import { useEffect } from 'react';
import { Link } from 'wouter';
import { armTypeAhead } from '../../lib/type-ahead';

/** /404 and /401: say what happened and offer the way back. */
export function ErrorPage({ code }: { code: 404 | 401 }) {
  const text = code === 404 ? '页面不存在，请检查地址是否正确。' : '您没有访问该页面的权限。';
  // No palette here: the keys are this page's (Enter on 返回首页), not a buffer's.
  useEffect(() => armTypeAhead(false), []);
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-6xl font-bold text-[var(--theme-strong)]">{code}</p>
      <p className="text-gray-600">{text}</p>
      <Link href="/" className="rounded border border-[var(--theme)] px-4 py-1.5 text-sm text-[var(--theme-strong)] focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
        返回首页
      </Link>
    </main>
  );
}
