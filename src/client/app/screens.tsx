import { Suspense } from 'react';
import type { ScreenComponent } from '../../shared/api';
import { SCREENS } from './features';
import { PlannedScreen } from './pages/planned-screen';

export function Screen({ component, title, menuTitle }: { component: string; title: string; menuTitle: string }) {
  // Menu items come from the server: a component it names may be planned here (or unknown to this build).
  const Found = Object.hasOwn(SCREENS, component) ? SCREENS[component as ScreenComponent] : undefined;
  if (!Found) return <PlannedScreen title={title} menuTitle={menuTitle} />;
  return (
    <Suspense fallback={<p className="p-6 text-sm text-gray-600">加载中…</p>}>
      <Found />
    </Suspense>
  );
}

