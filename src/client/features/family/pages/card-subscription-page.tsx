import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { family } from '../../../../shared/api';
import { CARD_CATEGORIES, CARD_STATES, type CardCategory, type CardState } from '../../../../shared/api/card';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { Field } from '../../../components/field';
import { ScreenSection } from '../../../components/screen-section';
import { ApiError } from '../../../lib/errors';
import { useScreenLocation } from '../../../lib/screen-context';
import { useApi } from '../../../lib/use-api';
import { cardSubscriptionPath, normaliseCardNo } from '../paths';

/**
 * 卡片订阅 (CardSubscription, hidden): asks the card centre (卡中心, `checkCardFromKZX`) about one card
 * before a family card is bound — does it exist, in which state and category, may it be bound and
 * why not — in plain Chinese, with the card-type dictionary beside it. The number asked sits in the
 * address (`?no=`), so the palette's 卡中心查卡 and a reload land on the same answer.
 */
export function CardSubscriptionPage() {
  const { search } = useScreenLocation();
  const [, navigate] = useLocation();
  const asked = normaliseCardNo(new URLSearchParams(search).get('no') ?? '');
  const checked = asked ? family.checkCard.query.safeParse({ busCardNo: asked }) : null;
  const [draft, setDraft] = useState(asked);
  const [error, setError] = useState<string | null>(null);
  // The address is the truth: the palette asking about another card replaces what was typed.
  const [seen, setSeen] = useState(asked);
  if (seen !== asked) {
    setSeen(asked);
    setDraft(asked);
    setError(null);
  }
  // Silent: the answer's failure is told here, beside the question, not in a toast as well.
  const answer = useApi(family.checkCard, checked?.success ? { query: { busCardNo: asked } } : null, undefined, { silent: true });
  const dict = useApi(family.cardTypeDict, {}, undefined, { silent: true });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const no = normaliseCardNo(draft);
    const valid = family.checkCard.query.safeParse({ busCardNo: no });
    if (!valid.success) return setError(valid.error.issues[0]?.message ?? '卡号应为16位数字');
    setError(null);
    // The same card again asks the centre again (its answer may have changed since).
    if (no === asked) void answer.mutate();
    else navigate(cardSubscriptionPath(no));
  };

  const addressError = checked && !checked.success ? (checked.error.issues[0]?.message ?? '卡号应为16位数字') : null;
  // An ended session is the session notice's to tell.
  const failed = answer.error && !(answer.error instanceof ApiError && answer.error.code === 401) ? (answer.error instanceof Error ? answer.error.message : '查询失败') : null;
  const a = checked?.success ? answer.data : undefined;

  return (
    <ScreenSection title="卡片订阅">
      <div className="flex max-w-5xl flex-col gap-4 lg:flex-row lg:items-start">
        <div className="min-w-0 flex-1 rounded bg-white p-4 shadow-sm">
          <h3 className="mb-3 text-sm font-medium text-gray-900">向卡中心查询卡片</h3>
          <form role="search" aria-label="卡中心查卡" noValidate onSubmit={submit} className="flex flex-wrap items-start gap-2">
            <div className="min-w-0 flex-1">
              <Field
                label="卡号"
                autoFocus
                inputMode="numeric"
                autoComplete="off"
                maxLength={19}
                placeholder="16位卡号，按 Enter 查询"
                value={draft}
                onChange={(e) => (setDraft(e.target.value), setError(null))}
                error={error ?? addressError}
              />
            </div>
            <Button type="submit" variant="primary" disabled={answer.isValidating} hotkey="Enter">
              {answer.isValidating ? '查询中…' : '查询'}
            </Button>
          </form>
          <section aria-label="卡中心答复" aria-live="polite" className="mt-2 text-sm">
            {!checked?.success ? (
              <p className="text-gray-600">输入卡号后按 Enter，查询卡片是否存在、当前状态，以及能否绑定为亲情卡。</p>
            ) : failed ? (
              <p role="alert" className="text-red-700">
                查询失败：{failed}
              </p>
            ) : !a || a.cardNo !== asked ? (
              <p className="text-gray-600">查询中…</p>
            ) : !a.exists ? (
              <p className="rounded border border-orange-200 bg-orange-50 p-3 text-orange-900">
                卡中心查无此卡：<span className="tabular-nums">{a.cardNo}</span>。请乘客核对卡号。
              </p>
            ) : (
              <div className="rounded border border-gray-200 p-3">
                <dl className="grid grid-cols-[6rem_1fr] gap-y-1.5">
                  <dt className="text-gray-600">卡号</dt>
                  <dd>
                    <CardNoLink cardNo={a.cardNo} />
                    <span className="ml-2 text-xs text-gray-500">（打开卡片详情）</span>
                  </dd>
                  <dt className="text-gray-600">卡片状态</dt>
                  <dd className="text-gray-900">{a.state === null ? '—' : (CARD_STATES[a.state as CardState] ?? `未知状态（${a.state}）`)}</dd>
                  <dt className="text-gray-600">卡类别</dt>
                  <dd className="text-gray-900">{a.category === null ? '—' : (CARD_CATEGORIES[a.category as CardCategory] ?? `未知类别（${a.category}）`)}</dd>
                  <dt className="text-gray-600">亲情卡</dt>
                  <dd className={a.bindable ? 'text-green-800' : 'text-orange-800'}>{a.bindable ? '可以绑定为亲情卡' : `不能绑定：${a.reason ?? '卡中心未说明原因'}`}</dd>
                </dl>
              </div>
            )}
          </section>
          <p className="mt-4 text-sm">
            <Link href={pagePath('callingCard', 'family-bind')} className="text-[var(--theme-strong)] underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
              返回绑定关系
            </Link>
          </p>
        </div>
        <section aria-label="卡类型字典" className="w-full rounded bg-white p-4 text-sm shadow-sm lg:w-64">
          <h3 className="mb-2 font-medium text-gray-900">卡类型字典</h3>
          {dict.data ? (
            <ul className="flex flex-col divide-y divide-gray-100">
              {dict.data.map((d) => (
                <li key={d.value} className="flex gap-3 py-1">
                  <span className="w-6 text-right tabular-nums text-gray-500">{d.value}</span>
                  <span className="text-gray-900">{d.label}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-gray-600">{dict.error ? '字典加载失败' : '加载中…'}</p>
          )}
        </section>
      </div>
    </ScreenSection>
  );
}
