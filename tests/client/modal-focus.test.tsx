import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Button } from '../../src/client/components/button';
import { Modal } from '../../src/client/components/modal';

/**
 * Focus never leaves an open dialog for <body>: not when the focused button becomes disabled (a
 * refused preview, a request under way), not when the focused element goes away.
 */
afterEach(cleanup);

function Dialog() {
  const [busy, setBusy] = useState(false);
  const [extra, setExtra] = useState(true);
  return (
    <Modal
      open
      title="测试对话框"
      onClose={() => undefined}
      footer={
        <>
          <Button onClick={() => undefined}>取消</Button>
          <Button variant="primary" disabled={busy} onClick={() => setBusy(true)}>
            确定
          </Button>
        </>
      }
    >
      {extra && <Button onClick={() => setExtra(false)}>移除我</Button>}
    </Modal>
  );
}

const active = () => document.activeElement as HTMLElement | null;

describe('a dialog keeps focus', () => {
  it('on 取消 when the focused button becomes disabled, and Tab goes on inside the dialog', async () => {
    const user = userEvent.setup();
    render(<Dialog />);
    const dialog = await screen.findByRole('dialog', { name: '测试对话框' });
    const ok = within(dialog).getByRole('button', { name: '确定' });
    for (let i = 0; i < 6 && active() !== ok; i++) await user.tab();
    expect(active()).toBe(ok);
    await user.keyboard('{Enter}');
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: '取消' })));
    for (let i = 0; i < 5; i++) {
      await user.tab();
      expect(dialog.contains(active())).toBe(true);
    }
  });

  it('on 取消 when the focused element is removed', async () => {
    const user = userEvent.setup();
    render(<Dialog />);
    const dialog = await screen.findByRole('dialog', { name: '测试对话框' });
    const gone = within(dialog).getByRole('button', { name: '移除我' });
    for (let i = 0; i < 6 && active() !== gone; i++) await user.tab();
    expect(active()).toBe(gone);
    await user.keyboard('{Enter}');
    expect(gone.isConnected).toBe(false);
    await waitFor(() => expect(active()).toBe(within(dialog).getByRole('button', { name: '取消' })));
  });
});
