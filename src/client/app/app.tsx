import { useEffect } from 'react';
import { SWRConfig } from 'swr';
import { Toaster } from '../components/toast';
import { AppRoutes } from './router';
import { SessionEndedDialog } from './session-ended-dialog';
import { SessionProvider, useSession } from './session';
import { loadSettingsFor } from './settings';

function SettingsForUser() {
  const { user } = useSession();
  useEffect(() => loadSettingsFor(user?.login ?? null), [user]);
  return null;
}

export function App() {
  return (
    <SWRConfig value={{ provider: () => new Map() }}>
      <SessionProvider>
        <SettingsForUser />
        <AppRoutes />
        <SessionEndedDialog />
        <Toaster />
      </SessionProvider>
    </SWRConfig>
  );
}
