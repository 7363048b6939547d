import { Button } from '../components/button';
import { Modal } from '../components/modal';
import { safeRedirect } from '../lib/safe-redirect';
import { clearSession } from '../lib/session-store';
import { useSessionEnded } from '../lib/session-ended';

let leaving = false;

/** The one dialog for a session the server ended: clear, go to /login, reload after 1 s (spec §8). */
export function SessionEndedDialog() {
  const ended = useSessionEnded();
  if (!ended) return null;
  const relogin = () => {
    if (leaving) return;
    leaving = true;
    // Taken before anything re-routes: the login brings the user back to this exact page.
    const here = window.location.pathname + window.location.search + window.location.hash;
    // Already on /login (the guard got there first): keep the redirect it carries.
    const carried = window.location.pathname === '/login' ? new URLSearchParams(window.location.search).get('redirect') : here;
    // Checked here too, not only at login: this dialog must not pass a hostile target along.
    const back = safeRedirect(carried);
    clearSession();
    setTimeout(() => window.location.assign(`/login?redirect=${encodeURIComponent(back)}`), 1000);
  };
  return (
    <Modal
      open
      aboveSessionEnd
      title={ended.reason === 'elsewhere' ? '账号已在其他地方登录' : '登录已过期'}
      onClose={relogin}
      onSubmit={relogin}
      footer={
        <Button type="submit" variant="primary" autoFocus hotkey="Enter">
          重新登录
        </Button>
      }
    >
      <p className="text-sm text-gray-700">{ended.msg}</p>
    </Modal>
  );
}
