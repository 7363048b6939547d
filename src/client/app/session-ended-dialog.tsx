import { Button } from '../components/button';
import { Modal } from '../components/modal';
import { leaveNow, useSessionEnded } from '../lib/session-ended';

/**
 * The one dialog for a session the server ended (spec §8). The session is already cleared when it
 * shows and /login loads a second later on its own; 重新登录, Enter or Esc go there at once.
 */
export function SessionEndedDialog() {
  const ended = useSessionEnded();
  if (!ended) return null;
  return (
    <Modal
      open
      aboveSessionEnd
      title={ended.reason === 'elsewhere' ? '账号已在其他地方登录' : '登录已过期'}
      onClose={leaveNow}
      onSubmit={leaveNow}
      footer={
        <Button type="submit" variant="primary" autoFocus hotkey="Enter">
          重新登录
        </Button>
      }
    >
      <p className="text-sm text-gray-700">{ended.msg}</p>
      <p className="mt-1 text-xs text-gray-600">正在前往登录页…</p>
    </Modal>
  );
}
