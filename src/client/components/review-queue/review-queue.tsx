import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../button';
import { Modal } from '../modal';
import { DetailList, type DetailItem } from '../resource/detail-list';

/**
 * The review queue's frame (线上验卡 and 线上办卡): one application at a time, its record
 * header, its materials side by side with the automatic checks, and a decision by keyboard alone:
 *
 *   Enter     take the next pending application (the page claims it)
 *   1–5       switch the enlarged material
 *   a         通过 (a note field when the checks ask for one)
 *   r, 1–9    驳回 with a preset reason (editable)
 *   Ctrl+Enter  confirm the decision; the next one is taken at once
 *   s         skip to the next without deciding
 *   t         take over one another reviewer holds (when allowed)
 *   Esc       back from 通过/驳回, else leave the queue
 *
 * It knows nothing of the module: the page loads, claims and decides through the callbacks.
 */

export interface ReviewMaterial {
  id: number;
  label: string;
  purged: boolean;
}

export interface ReviewCheck {
  label: string;
  ok: boolean;
  detail: string;
}

export interface ReviewItem {
  /** Changes with each application: the pane resets on it. */
  key: number;
  heading: string;
  /** Badges beside the heading (status, category). */
  badges?: ReactNode;
  fields: DetailItem[];
  materials: ReviewMaterial[];
  checks: ReviewCheck[];
  /** False for one already decided, or held by another reviewer: shown, not decided here. */
  decidable: boolean;
  /** Why it cannot be decided, or what the reviewer should know first. */
  notice?: string | null;
  /** Set when 通过 needs a note (a failed face match): the hint shown above the note. */
  approveNote?: string | null;
  /** Offered when another reviewer holds it and this one may take it over (`t`). */
  takeOver?: (() => void) | null;
}

export type QueueState = 'idle' | 'loading' | 'empty' | 'ready';

export interface ReviewQueueProps {
  title: string;
  state: QueueState;
  item: ReviewItem | null;
  /** `待审核 12 条 · 我认领 1 条`: the queue's size beside the title. */
  position?: string;
  presetReasons: readonly string[];
  /** The reviewer may decide at all (the button permission). */
  canDecide: boolean;
  /** Opens one material (a reasoned, audited call): its bytes as base64. */
  loadMaterial(item: ReviewItem, materialId: number): Promise<{ mime: string; dataBase64: string } | null>;
  onTake(): void;
  /** Resolve true when decided (the queue then takes the next), false when refused. */
  onApprove(note: string): Promise<boolean>;
  onReject(reason: string): Promise<boolean>;
  onSkip(): void;
  onClose(): void;
  /**
   * What the last decision did (`验卡申请 YZ… 已驳回`), said inside the queue where the reviewer
   * looks: the toast fades in seconds while the queue has already moved on to the next.
   */
  lastDecision?: string | null;
  /** Minimum lengths the server asks for: told before a call is made. */
  rejectMin?: number;
  noteMin?: number;
}

type Mode = 'view' | 'approve' | 'reject';

const inField = (e: KeyboardEvent) => !!(e.target as HTMLElement | null)?.closest?.('input, textarea, select');

export function ReviewQueue(p: ReviewQueueProps) {
  const { item } = p;
  const [mode, setMode] = useState<Mode>('view');
  const [text, setText] = useState('');
  const [shown, setShown] = useState(0);
  const [images, setImages] = useState<Record<number, string | 'failed'>>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  // A new application: back to looking, its materials opened (each one an audited read).
  useEffect(() => {
    setMode('view');
    setText('');
    setShown(0);
    setProblem(null);
    setImages({});
    if (!item) return;
    let live = true;
    for (const m of item.materials.filter((x) => !x.purged)) {
      void p
        .loadMaterial(item, m.id)
        .then((got) => live && setImages((prev) => ({ ...prev, [m.id]: got ? `data:${got.mime};base64,${got.dataBase64}` : 'failed' })))
        .catch(() => live && setImages((prev) => ({ ...prev, [m.id]: 'failed' })));
    }
    requestAnimationFrame(() => panelRef.current?.focus());
    return () => {
      live = false;
    };
    // The item's key alone: a refetch of the same application keeps what is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item?.key]);

  const decidable = !!item && item.decidable && p.canDecide && p.state === 'ready';

  const enter = (m: Mode) => {
    if (!decidable) return;
    setMode(m);
    setProblem(null);
    setText('');
    // 驳回 keeps the keys on the pane, so 1–9 choose a preset reason (Tab reaches the field to edit it);
    // a note to 通过 is typed at once.
    if (m === 'approve' && item?.approveNote) requestAnimationFrame(() => fieldRef.current?.focus());
    else requestAnimationFrame(() => panelRef.current?.focus());
  };

  const confirm = async () => {
    if (!decidable || busy || mode === 'view') return;
    const value = text.trim();
    if (mode === 'reject' && [...value].length < (p.rejectMin ?? 4)) return setProblem(`请填写驳回原因（至少${p.rejectMin ?? 4}个字），或按 1–9 选择常用原因`);
    if (mode === 'approve' && item?.approveNote && [...value].length < (p.noteMin ?? 10)) return setProblem(`请填写人工核验说明（至少${p.noteMin ?? 10}个字）`);
    setBusy(true);
    setProblem(null);
    try {
      const ok = mode === 'approve' ? await p.onApprove(value) : await p.onReject(value);
      if (!ok) setProblem('未能完成，请看提示后重试，或按 S 跳过');
    } finally {
      setBusy(false);
    }
  };

  // The queue's keys wherever focus is in it; in a field only Ctrl+Enter and Esc.
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onKey.current = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && (mode === 'view' || p.state !== 'ready')) {
      // Leaves from wherever focus is (after a toast or a refetch it may sit outside the panel).
      e.preventDefault();
      e.stopPropagation();
      p.onClose();
      return;
    }
    if (e.altKey || e.defaultPrevented) return;
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void confirm();
      return;
    }
    if (e.key === 'Escape' && mode !== 'view') {
      // Back to looking; a second Esc leaves (the dialog's own).
      e.preventDefault();
      e.stopPropagation();
      setMode('view');
      setProblem(null);
      panelRef.current?.focus();
      return;
    }
    if (e.ctrlKey || e.metaKey || inField(e)) return;
    const k = e.key.toLowerCase();
    if (k === 'enter' && (p.state === 'idle' || p.state === 'empty' || (p.state === 'ready' && !decidable))) {
      if ((e.target as HTMLElement | null)?.closest?.('button')) return;
      e.preventDefault();
      p.onTake();
      return;
    }
    if (p.state !== 'ready' || !item) return;
    if (/^[1-9]$/.test(k)) {
      const n = Number(k);
      e.preventDefault();
      if (mode === 'reject') {
        const reason = p.presetReasons[n - 1];
        if (reason) setText(reason);
      } else if (n <= item.materials.length) setShown(n - 1);
      return;
    }
    if (k === 'a' && decidable) {
      e.preventDefault();
      enter('approve');
    } else if (k === 'r' && decidable) {
      e.preventDefault();
      enter('reject');
    } else if (k === 't' && item.takeOver) {
      e.preventDefault();
      item.takeOver();
    } else if (k === 's') {
      e.preventDefault();
      p.onSkip();
    }
  };
  useEffect(() => {
    const listen = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener('keydown', listen, true);
    return () => window.removeEventListener('keydown', listen, true);
  }, []);

  const current = item?.materials[shown];
  const src = current ? images[current.id] : undefined;
  const failing = item?.checks.filter((c) => !c.ok).length ?? 0;

  return (
    <Modal
      open
      title={`${p.title}${p.position ? ` · ${p.position}` : ''}`}
      onClose={p.onClose}
      width="max-w-6xl"
      footer={
        <div className="flex w-full flex-wrap items-center gap-2">
          <p role="status" aria-label="上一条审核结果" className="w-full text-sm text-green-800">
            {p.lastDecision ? `上一条：${p.lastDecision}` : ''}
          </p>
          <span className="mr-auto text-xs text-gray-600">Enter 领取下一条 · 1–5 切换材料 · A 通过 · R 驳回（1–9 常用原因） · Ctrl+Enter 确认 · S 跳过 · Esc 退出</span>
          {p.state === 'ready' && (
            <Button onClick={p.onSkip} hotkey="S">
              跳过
            </Button>
          )}
          {decidable && (
            <>
              <Button variant={mode === 'reject' ? 'danger' : 'default'} onClick={() => enter('reject')} hotkey="R">
                驳回
              </Button>
              <Button variant={mode === 'approve' ? 'primary' : 'default'} onClick={() => enter('approve')} hotkey="A">
                通过
              </Button>
            </>
          )}
          <Button onClick={p.onClose} hotkey="Esc">
            退出审核
          </Button>
        </div>
      }
    >
      <div ref={panelRef} tabIndex={-1} aria-label="审核队列" className="outline-none">
        {p.state !== 'ready' || !item ? (
          <div role="status" className="flex min-h-48 flex-col items-center justify-center gap-3 text-sm text-gray-700">
            {p.state === 'loading' ? (
              '正在领取下一条…'
            ) : p.state === 'empty' ? (
              <>
                <span>没有可领取的待审核申请。</span>
                <Button onClick={p.onTake} hotkey="Enter">
                  再查一次
                </Button>
              </>
            ) : (
              <>
                <span>按 Enter 领取下一条待审核申请（领取后10分钟内他人不能审核）。</span>
                <Button variant="primary" onClick={p.onTake} hotkey="Enter" autoFocus>
                  领取下一条
                </Button>
              </>
            )}
          </div>
        ) : (
          <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <section aria-label="申请材料" className="min-w-0">
              <div role="tablist" aria-label="材料" className="mb-2 flex flex-wrap gap-1">
                {item.materials.map((m, i) => (
                  <button
                    key={m.id}
                    type="button"
                    role="tab"
                    aria-selected={i === shown}
                    onClick={() => setShown(i)}
                    className={`rounded border px-2 py-1 text-xs ${i === shown ? 'border-[var(--theme)] bg-[var(--theme-soft,#eef2ff)] text-[var(--theme-strong)]' : 'border-gray-300 text-gray-700'}`}
                  >
                    <kbd className="mr-1 tabular-nums">{i + 1}</kbd>
                    {m.label}
                    {m.purged ? '（已清除）' : ''}
                  </button>
                ))}
              </div>
              <div className="flex min-h-64 items-center justify-center rounded border border-gray-200 bg-gray-50 p-2">
                {!current ? (
                  <span className="text-sm text-gray-600">没有材料</span>
                ) : current.purged ? (
                  <span className="text-sm text-gray-600">{current.label}已按规定清除（决定满30天，保留哈希）</span>
                ) : src === 'failed' ? (
                  <span className="text-sm text-red-700">{current.label}读取失败</span>
                ) : src ? (
                  <img src={src} alt={current.label} className="max-h-[26rem] max-w-full object-contain" />
                ) : (
                  <span className="text-sm text-gray-600">加载中…</span>
                )}
              </div>
              {/* The others beside it, small: 人像面 against 人脸照片 without switching. */}
              <div className="mt-2 flex flex-wrap gap-2">
                {item.materials.map((m, i) =>
                  i === shown || m.purged || !images[m.id] || images[m.id] === 'failed' ? null : (
                    <button key={m.id} type="button" onClick={() => setShown(i)} className="rounded border border-gray-200 p-1" title={`${i + 1} ${m.label}`}>
                      <img src={images[m.id] as string} alt={m.label} className="h-20 w-auto" />
                    </button>
                  ),
                )}
              </div>
            </section>
            <section aria-label="申请信息" className="min-w-0">
              <h3 className="mb-2 flex flex-wrap items-center gap-2 text-base font-medium text-gray-900">
                {item.heading}
                {item.badges}
              </h3>
              <DetailList termWidth="5.5rem" items={item.fields} />
              <h4 className="mb-1 mt-3 text-sm font-medium text-gray-800">自动核验{failing ? `（${failing} 项未通过）` : '（全部通过）'}</h4>
              <ul aria-label="自动核验" className="space-y-1 text-sm">
                {item.checks.map((c) => (
                  <li key={c.label} className="flex gap-2">
                    <span aria-hidden className={c.ok ? 'text-green-700' : 'text-red-700'}>
                      {c.ok ? '✓' : '✗'}
                    </span>
                    <span className={c.ok ? 'text-gray-800' : 'font-medium text-red-800'}>{c.label}</span>
                    <span className="text-gray-600">{c.detail}</span>
                    <span className="sr-only">{c.ok ? '通过' : '未通过'}</span>
                  </li>
                ))}
              </ul>
              {item.notice && (
                <p role="note" className="mt-3 flex flex-wrap items-center gap-2 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">
                  {item.notice}
                  {item.takeOver && (
                    <Button onClick={item.takeOver} hotkey="T">
                      接管审核
                    </Button>
                  )}
                </p>
              )}
              {mode === 'reject' && (
                <div className="mt-3">
                  <ol aria-label="常用驳回原因" className="mb-2 grid gap-0.5 text-sm">
                    {p.presetReasons.map((r, i) => (
                      <li key={r}>
                        <button type="button" className={`text-left hover:underline ${text === r ? 'font-medium text-[var(--theme-strong)]' : 'text-gray-700'}`} onClick={() => setText(r)}>
                          <kbd className="mr-1 tabular-nums">{i + 1}</kbd>
                          {r}
                        </button>
                      </li>
                    ))}
                  </ol>
                </div>
              )}
              {(mode === 'reject' || (mode === 'approve' && item.approveNote)) && (
                <label className="mt-2 block text-sm">
                  <span className="mb-1 block text-gray-800">{mode === 'reject' ? '驳回原因' : item.approveNote}</span>
                  <textarea
                    ref={fieldRef}
                    rows={2}
                    maxLength={mode === 'reject' ? 100 : 200}
                    value={text}
                    onChange={(e) => setText(e.target.value)}
                    className="w-full rounded border border-gray-300 px-2 py-1"
                    aria-label={mode === 'reject' ? '驳回原因' : '人工核验说明'}
                  />
                </label>
              )}
              {mode !== 'view' && (
                <div className="mt-2 flex items-center gap-2">
                  <Button variant={mode === 'reject' ? 'danger' : 'primary'} onClick={() => void confirm()} disabled={busy} hotkey="Ctrl+Enter">
                    {busy ? '提交中…' : mode === 'reject' ? '确认驳回' : '确认通过'}
                  </Button>
                  <span className="text-xs text-gray-600">确认后自动领取下一条</span>
                </div>
              )}
              {problem && (
                <p role="alert" className="mt-2 text-sm text-red-700">
                  {problem}
                </p>
              )}
            </section>
          </div>
        )}
      </div>
    </Modal>
  );
}
