import { type ClipboardEvent, type KeyboardEvent, type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { plainToRichText, richTextPlain, safeHref, sanitizeRichText } from '../../shared/domain/rich-text';

/**
 * The rich text of 公告 and 帮助文档: a small editor (bold, two heading levels, lists, links) over a
 * contenteditable region, and the view that shows stored text. Both go through the server's own
 * allow-list (shared/domain/rich-text.ts): what is pasted is cleaned before it lands, and what is
 * shown is cleaned again, so a row written some other way still runs nothing.
 */

/** One style: the container's children styled without a stylesheet of its own. */
const PROSE =
  'text-sm leading-6 text-gray-800 [&_a]:text-[var(--theme)] [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-gray-200 [&_blockquote]:pl-3 [&_blockquote]:text-gray-600 [&_h2]:mt-2 [&_h2]:text-base [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-semibold [&_h4]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-1 [&_ul]:list-disc [&_ul]:pl-6';

/** Stored rich text, shown through the allow-list; links open in a new tab, away from the console. */
export function RichTextView({ html, className = '', label }: { html: string; className?: string; label?: string }) {
  const open = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a');
    if (!a) return;
    e.preventDefault();
    const href = safeHref(a.getAttribute('href') ?? '');
    if (href) window.open(href, '_blank', 'noopener,noreferrer');
  };
  return (
    // Rich text is markup by design: it is written only after the allow-list, here as on the server.
    // eslint-disable-next-line no-restricted-syntax
    <div aria-label={label} className={`${PROSE} ${className}`} onClick={open} dangerouslySetInnerHTML={{ __html: sanitizeRichText(html) }} />
  );
}

interface Tool {
  id: string;
  label: string;
  keys: string;
  /** What the key event must be. */
  match(e: KeyboardEvent): boolean;
  run(): void;
}

const exec = (command: string, value?: string) => {
  // jsdom has no editing commands; a browser without one leaves the text as it was.
  if (typeof document.execCommand === 'function') document.execCommand(command, false, value);
};

export interface RichTextEditorProps {
  label: string;
  value: string;
  onChange(html: string): void;
  required?: boolean;
  error?: string | null;
  hint?: string;
  /** The server's limit, shown as the count of what is typed. */
  maxLength?: number;
  autoFocus?: boolean;
}

/**
 * 正文 editor. Keys: Ctrl+B 加粗, Ctrl+Alt+2 / Ctrl+Alt+3 标题 / 小标题, Ctrl+Alt+0 正文, Ctrl+Shift+8
 * 项目列表, Ctrl+Shift+7 编号列表, Ctrl+Shift+K 链接 (Ctrl+K stays the palette's). Enter starts a new
 * paragraph; Esc is the dialog's (it asks before losing typed text); Ctrl+S and Ctrl+Enter save.
 */
export function RichTextEditor({ label, value, onChange, required, error, hint, maxLength, autoFocus }: RichTextEditorProps) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  // What this editor last reported: a value from outside (the other's saved text) replaces the region.
  const emitted = useRef<string | null>(null);
  const saved = useRef<Range | null>(null);
  const [linking, setLinking] = useState(false);
  const [href, setHref] = useState('https://');
  const [hrefError, setHrefError] = useState<string | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || value === emitted.current) return;
    // The one way markup enters the editor: through the allow-list.
    // eslint-disable-next-line no-restricted-syntax
    el.innerHTML = sanitizeRichText(value);
    emitted.current = value;
  }, [value]);
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);

  const emit = () => {
    // Read, not written: the server sanitises what is sent.
    // eslint-disable-next-line no-restricted-syntax
    const html = ref.current?.innerHTML ?? '';
    emitted.current = html;
    onChange(html);
  };
  const apply = (command: string, v?: string) => {
    ref.current?.focus();
    exec(command, v);
    emit();
  };
  const openLink = () => {
    const sel = window.getSelection();
    saved.current = sel && sel.rangeCount && ref.current?.contains(sel.anchorNode) ? sel.getRangeAt(0).cloneRange() : null;
    setHref('https://');
    setHrefError(null);
    setLinking(true);
  };
  const insertLink = () => {
    const url = safeHref(href.trim());
    if (!url) return setHrefError('链接须以 https://、http://、mailto: 或 tel: 开头');
    ref.current?.focus();
    const sel = window.getSelection();
    if (saved.current && sel) {
      sel.removeAllRanges();
      sel.addRange(saved.current);
    }
    // With nothing selected the address itself is the link's text.
    if (!sel || sel.isCollapsed) exec('insertHTML', `<a href="${url.replace(/"/g, '&quot;')}">${url.replace(/</g, '&lt;')}</a>`);
    else exec('createLink', url);
    emit();
    setLinking(false);
  };

  const tools: Tool[] = [
    { id: 'bold', label: '加粗', keys: 'Ctrl+B', match: (e) => mod(e) && !e.altKey && !e.shiftKey && key(e) === 'b', run: () => apply('bold') },
    { id: 'h2', label: '标题', keys: 'Ctrl+Alt+2', match: (e) => mod(e) && e.altKey && e.code === 'Digit2', run: () => apply('formatBlock', 'h2') },
    { id: 'h3', label: '小标题', keys: 'Ctrl+Alt+3', match: (e) => mod(e) && e.altKey && e.code === 'Digit3', run: () => apply('formatBlock', 'h3') },
    { id: 'p', label: '正文', keys: 'Ctrl+Alt+0', match: (e) => mod(e) && e.altKey && e.code === 'Digit0', run: () => apply('formatBlock', 'p') },
    { id: 'ul', label: '项目列表', keys: 'Ctrl+Shift+8', match: (e) => mod(e) && e.shiftKey && e.code === 'Digit8', run: () => apply('insertUnorderedList') },
    { id: 'ol', label: '编号列表', keys: 'Ctrl+Shift+7', match: (e) => mod(e) && e.shiftKey && e.code === 'Digit7', run: () => apply('insertOrderedList') },
    { id: 'link', label: '链接', keys: 'Ctrl+Shift+K', match: (e) => mod(e) && e.shiftKey && key(e) === 'k', run: openLink },
  ];

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const tool = tools.find((t) => t.match(e));
    if (!tool) return;
    e.preventDefault();
    e.stopPropagation();
    tool.run();
  };
  const onPaste = (e: ClipboardEvent<HTMLDivElement>) => {
    // Pasted markup (a web page, a word processor) is cut to the allow-list before it lands.
    e.preventDefault();
    const html = e.clipboardData.getData('text/html');
    const clean = html ? sanitizeRichText(html) : plainToRichText(e.clipboardData.getData('text/plain'));
    exec('insertHTML', clean);
    emit();
  };

  const count = richTextPlain(value).length;
  const errorId = `${id}-error`;
  return (
    <div className="mb-4 flex flex-col gap-1 sm:flex-row sm:items-start">
      <span id={`${id}-label`} className="shrink-0 pt-1.5 text-sm text-gray-600 sm:pr-3 sm:text-right" style={{ width: 80 }}>
        {required && (
          <span aria-hidden="true" className="mr-0.5 text-red-600">
            *
          </span>
        )}
        {label}
      </span>
      <div className="min-w-0 flex-1">
        <div role="toolbar" aria-label={`${label}格式`} className="flex flex-wrap gap-1 rounded-t border border-b-0 border-gray-300 bg-gray-50 px-1 py-1">
          {tools.map((t) => (
            <button
              key={t.id}
              type="button"
              title={`${t.label} (${t.keys})`}
              aria-keyshortcuts={t.keys.replace('Ctrl', 'Control')}
              // Keeps the selection in the text: a toolbar button must not take it away.
              onMouseDown={(e) => e.preventDefault()}
              onClick={t.run}
              className="rounded px-2 py-0.5 text-xs text-gray-700 hover:bg-gray-200 focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
            >
              {t.label}
            </button>
          ))}
        </div>
        {linking && (
          <div className="flex flex-wrap items-center gap-2 border border-b-0 border-gray-300 bg-white px-2 py-1.5">
            <label htmlFor={`${id}-href`} className="text-xs text-gray-600">
              链接地址
            </label>
            <input
              id={`${id}-href`}
              autoFocus
              value={href}
              aria-invalid={hrefError ? true : undefined}
              onChange={(e) => (setHref(e.target.value), setHrefError(null))}
              onKeyDown={(e) => {
                // Enter and Esc are this little form's, not the dialog's.
                if (e.key === 'Enter') {
                  e.preventDefault();
                  e.stopPropagation();
                  insertLink();
                } else if (e.key === 'Escape') {
                  e.preventDefault();
                  e.stopPropagation();
                  setLinking(false);
                  ref.current?.focus();
                }
              }}
              className="min-w-0 flex-1 rounded border border-gray-300 px-2 py-0.5 text-sm"
            />
            <button type="button" onClick={insertLink} className="rounded bg-[var(--theme)] px-2 py-0.5 text-xs text-white">
              插入
            </button>
            {hrefError && (
              <p role="alert" className="w-full text-xs text-red-600">
                {hrefError}
              </p>
            )}
          </div>
        )}
        <div
          ref={ref}
          role="textbox"
          aria-multiline="true"
          aria-labelledby={`${id}-label`}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          contentEditable
          suppressContentEditableWarning
          tabIndex={0}
          onInput={emit}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onFocus={() => exec('defaultParagraphSeparator', 'p')}
          className={`${PROSE} max-h-[50vh] min-h-40 overflow-y-auto rounded-b border px-3 py-2 outline-none focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40 ${error ? 'border-red-400' : 'border-gray-300 focus:border-[var(--theme)]'}`}
        />
        {error ? (
          <p id={errorId} className="mt-1 text-xs text-red-600">
            {error}
          </p>
        ) : (
          <p className="mt-1 text-xs text-gray-500">
            {hint ? `${hint} · ` : ''}
            {maxLength ? `${count} 字` : null}
          </p>
        )}
      </div>
    </div>
  );
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;
const key = (e: KeyboardEvent) => e.key.toLowerCase();
