import { type ComponentType, lazy, Suspense } from 'react';
import { PlannedScreen } from './pages/planned-screen';

/**
 * Screens by the `component` name the server's menu items carry. The app is the composition root:
 * it may import every feature; features never import each other.
 */
const SCREENS: Record<string, ComponentType> = {
  ListUser: lazy(() => import('../features/account/pages/user-list-page').then((m) => ({ default: m.UserListPage }))),
  ListRoleGroup: lazy(() => import('../features/account/pages/role-group-page').then((m) => ({ default: m.RoleGroupPage }))),
  ListSysLog: lazy(() => import('../features/account/pages/sys-log-page').then((m) => ({ default: m.SysLogPage }))),
  ListDistrict: lazy(() => import('../features/settings/pages/district-page').then((m) => ({ default: m.DistrictPage }))),
  ListAgreement: lazy(() => import('../features/settings/pages/agreement-page').then((m) => ({ default: m.AgreementPage }))),
  About: lazy(() => import('../features/version/pages/about-page').then((m) => ({ default: m.AboutPage }))),
};

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
