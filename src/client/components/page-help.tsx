import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { type PageHelpDoc, helpDocByPage, helpDocRate, helpDocView } from '../../shared/api/help';
import { richTextPlain } from '../../shared/domain/rich-text';
import { formatDateTime } from '../../shared/domain/time';
import { api } from '../lib/api-client';
import { useApi } from '../lib/use-api';
import { Button } from './button';
import { RichTextView } from './rich-text';

/** `/cardVerify/card-verify-list?x=1` → `cardVerify/card-verify-list`: how 帮助中心 names a console page. */
export const pageKeyOf = (path: string) => (path.split('?')[0] ?? '').replace(/^\/+|\/+$/g, '');
const PAGE_KEY = /^[A-Za-z][\w-]*\/[\w-]+$/;

/**
 * ★ 页内帮助, at the top of the `?` sheet: the current page's own staff doc (帮助中心, bound to this
 * page), its first lines and Enter to read it whole, with 有用 / 没用. Loaded with the sheet, not
 * with the shell: the sheet pulls this in lazily.
 */
export default function PageHelp() {
  const [location] = useLocation();
  const pageKey = pageKeyOf(location);
  const docs = useApi(helpDocByPage, PAGE_KEY.test(pageKey) ? { query: { pageKey } } : null, { keepPreviousData: false }, { silent: true });
  const [open, setOpen] = useState<PageHelpDoc | null>(null);
  if (!PAGE_KEY.test(pageKey) || !docs.data?.length) {
    return docs.data ? <p className="mb-3 text-xs text-gray-500">本页还没有帮助文档。</p> : null;
  }
  if (open) return <WholeDoc doc={open} onBack={() => setOpen(null)} />;
  const [first, ...more] = docs.data;
  return (
    <section aria-label="本页帮助" className="mb-4 rounded border border-blue-100 bg-blue-50 px-3 py-2">
      <h3 className="text-sm font-medium text-gray-800">本页帮助：{first!.title}</h3>
      <p className="mt-1 line-clamp-2 text-xs text-gray-700">{richTextPlain(first!.content).slice(0, 120)}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        {/* Focused when the sheet opens: Enter reads the doc whole. */}
        <Button autoFocus variant="primary" className="h-7" hotkey="Enter" onClick={() => setOpen(first!)}>
          查看全文
        </Button>
        {more.map((d) => (
          <Button key={d.id} className="h-7" onClick={() => setOpen(d)}>
            {d.title}
          </Button>
        ))}
      </div>
    </section>
  );
}

/** One doc whole, counted as viewed once, with the reader's own 有用 / 没用 (pressed again: taken back). */
function WholeDoc({ doc, onBack }: { doc: PageHelpDoc; onBack(): void }) {
  const [vote, setVote] = useState(doc);
  const counted = useRef(false);
  const backRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    backRef.current?.focus();
    if (counted.current) return;
    counted.current = true;
    void api.call(helpDocView, { body: { id: doc.id } }, { silent: true }).catch(() => undefined);
  }, [doc.id]);
  const rate = async (helpful: boolean) => {
    const next = vote.myVote === helpful ? null : helpful;
    try {
      const r = await api.call(helpDocRate, { body: { id: doc.id, helpful: next } });
      setVote((v) => ({ ...v, ...r }));
    } catch {
      // The refusal is in the toast.
    }
  };
  return (
    <article aria-label={doc.title} className="mb-4 rounded border border-gray-200 px-3 py-2">
      <h3 className="text-sm font-medium text-gray-800">{doc.title}</h3>
      <p className="mb-2 text-xs text-gray-500">更新于 {formatDateTime(doc.updatedDate, 'YYYY-MM-DD HH:mm')}</p>
      <RichTextView html={doc.content} className="max-h-[50vh] overflow-y-auto" />
      <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-gray-600">
        <span>这篇帮助有用吗？</span>
        <Button className="h-7" aria-pressed={vote.myVote === true} onClick={() => void rate(true)}>
          有用 {vote.helpful}
        </Button>
        <Button className="h-7" aria-pressed={vote.myVote === false} onClick={() => void rate(false)}>
          没用 {vote.unhelpful}
        </Button>
        <Button ref={backRef} className="ml-auto h-7" onClick={onBack}>
          返回快捷键
        </Button>
      </div>
    </article>
  );
}
