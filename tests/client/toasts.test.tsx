import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../src/client/components/toast';
import { toast } from '../../src/client/lib/toast';

/** Toasts go by themselves, but not from under the pointer or the keyboard (WCAG 2.2.1). */
describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('an action toast goes after 10 s; held by the pointer it stays, and gets its full time again when left', () => {
    render(<Toaster />);
    const run = vi.fn();
    act(() => void toast.action('导出完成：每日客流', { label: '下载', run }));
    const box = screen.getByText('导出完成：每日客流').parentElement!;
    act(() => vi.advanceTimersByTime(9_000));
    fireEvent.mouseEnter(box);
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('导出完成：每日客流')).toBeTruthy();
    fireEvent.mouseLeave(box);
    act(() => vi.advanceTimersByTime(9_000));
    expect(screen.getByText('导出完成：每日客流')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1_500));
    expect(screen.queryByText('导出完成：每日客流')).toBeNull();
    expect(run).not.toHaveBeenCalled();
  });

  it('focus on its button holds it too; the button runs the action and closes the toast', () => {
    render(<Toaster />);
    const run = vi.fn();
    act(() => void toast.action('导出完成：乘车记录', { label: '下载', run }));
    const button = screen.getByRole('button', { name: '下载' });
    act(() => button.focus());
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.getByText('导出完成：乘车记录')).toBeTruthy();
    fireEvent.click(button);
    expect(run).toHaveBeenCalledOnce();
    expect(screen.queryByText('导出完成：乘车记录')).toBeNull();
  });

  it('an error toast still goes after 5 s when nobody holds it', () => {
    render(<Toaster />);
    act(() => void toast.error('请求超时'));
    act(() => vi.advanceTimersByTime(5_001));
    expect(screen.queryByText('请求超时')).toBeNull();
  });
});
