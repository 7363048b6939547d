import { useCallback, useState } from 'react';

/** The shell's own dialogs: 修改密码, the settings panel and the cheat sheet. */
export function useShellDialogs() {
  const [password, setPassword] = useState(false);
  const [settings, setSettings] = useState(false);
  const [cheat, setCheat] = useState(false);
  const closeAll = useCallback(() => {
    setCheat(false);
    setPassword(false);
    setSettings(false);
  }, []);
  return { password, settings, cheat, setPassword, setSettings, setCheat, anyOpen: password || settings || cheat, closeAll };
}
