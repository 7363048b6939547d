import { type ComponentType, lazy, Suspense } from 'react';
import { PlannedScreen } from './pages/planned-screen';

/**
 * Screens by the `component` name the server's menu items carry. The app is the composition root:
 * it may import every feature; features never import each other.
 */
const SCREENS: Record<string, ComponentType> = {};

export function Screen({ component, title, menuTitle }: { component: string; title: string; menuTitle: string }) {
  const Found = SCREENS[component];
  if (!Found) return <PlannedScreen title={title} menuTitle={menuTitle} />;
  return (
    <Suspense fallback={<p className="p-6 text-sm text-gray-400">加载中…</p>}>
      <Found />
    </Suspense>
  );
}

export { lazy };
