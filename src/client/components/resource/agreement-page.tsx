import { type FormEvent, type KeyboardEvent, useRef } from 'react';
import { type Agreement, system } from '../../../shared/api';
import { formatDateTime } from '../../../shared/domain/time';
import { Button } from '../button';
import { Field } from '../field';
import { FormError, TextAreaField } from '../form-controls';
import { ScreenSection } from '../screen-section';
import { StaleNote } from '../stale-note';
import { useNoAreaChosen } from '../../lib/current-user';
import { useAllowed } from '../../lib/permission';
import { useApi } from '../../lib/use-api';
import { useContractForm } from '../../lib/use-contract-form';
import { saveKey } from '../../lib/use-save-key';

interface AgreementPageProps {
  /** The agreement's code in `bus/agreement` (special-code, package, rechargeable, custom-bus): one text per code and area. */
  code: string;
  /** The screen's name, e.g. 套餐协议: its heading, the form's name and the words of its notices. */
  title: string;
  /** The title a first save gives the text unless the agent changes it, e.g. 套餐服务协议. */
  defaultTitle: string;
}

/**
 * An agreement screen (特殊码协议, 套餐协议, 储值协议, 协议设置): the one text riders accept, per area,
 * kept through the agreement endpoints under its code. Ctrl+S or 保存 saves; read-only without the
 * permission. An account on 全部区域 chooses an area first: the text belongs to one.
 */
export function AgreementPage({ code, title, defaultTitle }: AgreementPageProps) {
  const list = useApi(system.agreementList, { query: { code } });
  const noArea = useNoAreaChosen();
  const current = list.data?.[0] ?? null;
  return (
    <ScreenSection title={title}>
      <div className="max-w-3xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        {noArea ? (
          <p className="text-sm text-gray-700">{title}按区域保存：请先在顶部选择区域。</p>
        ) : !list.data ? (
          <p role="status" className="text-sm text-gray-700">
            {list.error ? `加载失败：${list.error instanceof Error ? list.error.message : String(list.error)}` : '加载中…'}
          </p>
        ) : (
          // Mounted once the row is known, so its values start from it; the first save's new row id
          // reaches the form as a prop (no remount: the agent's caret stays where it was).
          <AgreementForm agreement={current} code={code} title={title} defaultTitle={defaultTitle} />
        )}
      </div>
    </ScreenSection>
  );
}

function AgreementForm({ agreement, code, title, defaultTitle }: AgreementPageProps & { agreement: Agreement | null }) {
  const canSave = useAllowed(system.agreementSave.permission);
  // The row this form edits: the one it was opened on, or the one its own first save made. A row
  // someone else made meanwhile (the list refetched) is not this form's: saving as new meets the
  // duplicate refusal instead of overwriting it without a version.
  const ownId = useRef(agreement?.id ?? null);
  const form = useContractForm(system.agreementSave, {
    initial: { title: agreement?.title ?? defaultTitle, content: agreement?.content ?? '' },
    toInput: (v) => ({ body: { ...(ownId.current !== null ? { id: ownId.current } : {}), code, title: v.title, content: v.content } }),
    success: (saved) => `已保存协议「${saved.title}」`,
    onSaved: (saved) => {
      ownId.current = saved.id;
    },
    // Saved from the version it was opened on; another's save meanwhile shows beside the typed text.
    stale: { version: agreement?.rowVersion, valuesOf: (a) => ({ title: a.title, content: a.content }) },
  });
  const { values, errors, set } = form;
  // Nothing stored and nothing to save: an empty form with a made-up title would mislead.
  if (!agreement && !canSave) return <p className="text-sm text-gray-700">本区域还没有{title}。</p>;
  const save = () => {
    if (canSave) void form.submit();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return submit(e);
    saveKey(save)(e);
  };
  return (
    <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label={title}>
      <FormError>{errors['']}</FormError>
      {!agreement && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">本区域还没有{title}{canSave ? '，保存后小程序即可显示。' : '。'}</p>}
      {!canSave && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：只有区域管理员可以修改协议。</p>}
      <fieldset disabled={form.busy} className="contents">
        <Field label="标题" required readOnly={!canSave} maxLength={100} value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} note={<StaleNote form={form} field="title" />} />
        <TextAreaField
          label="内容"
          required
          readOnly={!canSave}
          rows={16}
          maxLength={50_000}
          value={values.content}
          onChange={(e) => set('content', e.target.value)}
          error={errors.content}
          hint={`${values.content.length} / 50000 字${canSave ? '；按 Ctrl+S 保存' : ''}`}
          note={<StaleNote form={form} field="content" show={(v) => (v.length > 80 ? `${v.slice(0, 80)}…` : v)} />}
        />
      </fieldset>
      <div className="flex items-center justify-end gap-3">
        {agreement && <span className="mr-auto text-xs text-gray-600">上次保存：{formatDateTime(agreement.updatedDate)}</span>}
        {canSave && (
          <Button type="submit" variant="primary" hotkey="Ctrl+S" disabled={form.busy}>
            {form.busy ? '保存中…' : '保存'}
          </Button>
        )}
      </div>
    </form>
  );
}
