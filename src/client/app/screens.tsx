import { Suspense } from 'react';
import type { ScreenComponent } from '../../shared/api';
import { SCREENS } from './features';
import { UnknownScreen } from './pages/unknown-screen';

export function Screen({ component, title, menuTitle }: { component: string; title: string; menuTitle: string }) {
  // Menu items come from the server: after an upgrade it may name a screen this (older) console lacks.
  const Found = Object.hasOwn(SCREENS, component) ? SCREENS[component as ScreenComponent] : undefined;
  if (!Found) return <UnknownScreen title={title} menuTitle={menuTitle} />;
  return (
    <Suspense fallback={<p className="p-6 text-sm text-gray-600">加载中…</p>}>
      <Found />
    </Suspense>
  );
}

