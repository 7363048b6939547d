import type { KeyboardEvent } from 'react';
import { NOTICE_CONTENT_MAX, NOTICE_STATUS, NOTICE_TITLE_MAX, NOTICE_TYPE, type Notice, noticeById, noticeSave } from '../../../../shared/api/notice';
import { formatDateTime, parseTypedDateTime } from '../../../../shared/domain/time';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { RichTextEditor, RichTextView } from '../../../components/rich-text';
import { StaleNote } from '../../../components/stale-note';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';

const TYPE_OPTIONS = NOTICE_TYPE.states.map((s) => ({ value: String(s.code), label: s.label }));

/** Line codes as typed: 「12, 45路 88」 → ['12', '45', '88']. */
const linesOf = (text: string) =>
  text
    .split(/[\s,，、;；]+/)
    .map((l) => l.replace(/路$/, '').trim())
    .filter(Boolean);

type Saved = Notice & { content: string };

/**
 * 新建公告 / 编辑公告 (a draft): title, type, the lines a 线路调整 is about, when it comes down, and
 * the rich text. Enter in a field, Ctrl+Enter or Ctrl+S save; Esc asks before losing typed text.
 */
export function NoticeFormDialog({ notice, title, onClose }: { notice?: Notice; title?: string; onClose(): void }) {
  // An edit needs the stored text first; a new notice starts empty.
  const full = useApi(noticeById, notice ? { query: { id: notice.id } } : null, { keepPreviousData: false, revalidateIfStale: true });
  // Another notice's text never fills this form, even for a moment.
  const loaded = full.data && full.data.id === notice?.id ? full.data : undefined;
  if (notice && !loaded) {
    return (
      <Modal open title={`编辑公告 · ${notice.title}`} onClose={onClose}>
        <p role="status" className="text-sm text-gray-700">
          {full.error ? '公告加载失败，请关闭后重试' : '加载中…'}
        </p>
      </Modal>
    );
  }
  return <NoticeForm notice={loaded} title={title} onClose={onClose} />;
}

function NoticeForm({ notice, title, onClose }: { notice?: Saved; title?: string; onClose(): void }) {
  const noArea = useNoAreaChosen();
  const form = useContractForm(noticeSave, {
    initial: {
      title: notice?.title ?? title ?? '',
      type: String(notice?.type ?? 1),
      lineCodes: notice?.lineCodes.join(' ') ?? '',
      expireAt: notice?.expireAt ? formatDateTime(notice.expireAt, 'YYYY-MM-DD HH:mm') : '',
      content: notice?.content ?? '',
    },
    toInput: (v) => ({
      body: {
        ...(notice ? { id: notice.id } : {}),
        title: v.title,
        type: Number(v.type),
        content: v.content,
        lineCodes: linesOf(v.lineCodes),
        expireAt: v.expireAt.trim() ? (parseTypedDateTime(v.expireAt) ?? v.expireAt) : null,
      },
    }),
    check: (v) => (v.expireAt.trim() && !parseTypedDateTime(v.expireAt) ? { expireAt: '请输入下线时间，如 2026-12-31 18:00' } : null),
    success: (n) => `已保存公告草稿「${n.title}」（${n.districtName ?? '全市'}）`,
    onSaved: onClose,
    stale: notice ? { version: notice.rowVersion, valuesOf: (n) => ({ title: n.title, type: String(n.type), lineCodes: n.lineCodes.join(' '), expireAt: n.expireAt ? formatDateTime(n.expireAt, 'YYYY-MM-DD HH:mm') : '', content: n.content }) } : undefined,
  });
  const { values, errors, set } = form;
  const save = () => void form.submit();
  const onKeyDown = (e: KeyboardEvent) => saveKey(save)(e);
  return (
    <Modal
      open
      width="max-w-3xl"
      title={notice ? `编辑公告 · ${notice.title}` : '新建公告'}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={save}
      footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="保存草稿" />}
    >
      <div onKeyDown={onKeyDown}>
        <FormError>{errors[''] ?? errors.districtId}</FormError>
        {!notice && noArea && <p className="mb-3 text-xs text-gray-600">当前为全部区域：将保存为全市公告。要发给某个区域，请先在顶部选择区域。</p>}
        <Field
          label="标题"
          required
          autoFocus
          maxLength={NOTICE_TITLE_MAX}
          value={values.title}
          onChange={(e) => set('title', e.target.value)}
          error={errors.title}
          hint={`${values.title.trim().length}/${NOTICE_TITLE_MAX}`}
          note={<StaleNote form={form} field="title" />}
        />
        <SelectField label="类型" required options={TYPE_OPTIONS} value={values.type} onChange={(e) => set('type', e.target.value)} error={errors.type} />
        <Field
          label="线路"
          required={values.type === '3'}
          value={values.lineCodes}
          onChange={(e) => set('lineCodes', e.target.value)}
          error={errors.lineCodes}
          placeholder="如 12 45 88"
          hint="线路调整公告填写调整的线路编号，空格或逗号分隔"
        />
        <Field label="下线时间" inputMode="numeric" placeholder="YYYY-MM-DD HH:mm" value={values.expireAt} onChange={(e) => set('expireAt', e.target.value)} error={errors.expireAt} hint="可留空：不自动下线" />
        <RichTextEditor label="内容" required value={values.content} onChange={(html) => set('content', html)} error={errors.content} maxLength={NOTICE_CONTENT_MAX} hint="Ctrl+S 保存" />
      </div>
    </Modal>
  );
}

/** 预览: the notice as riders read it, through the allow-list (the server's own). */
export function NoticePreviewDialog({ notice, onClose }: { notice: Notice; onClose(): void }) {
  const full = useApi(noticeById, { query: { id: notice.id } }, { keepPreviousData: false });
  const lines = notice.lineCodes.length ? ` · 线路 ${notice.lineCodes.join('、')}` : '';
  return (
    <Modal open width="max-w-3xl" title={`预览 · ${notice.title}`} onClose={onClose}>
      <p className="mb-2 text-xs text-gray-500">
        {NOTICE_TYPE.label(notice.type)} · {NOTICE_STATUS.label(notice.status)} · {notice.districtName ?? '全市'}
        {lines}
      </p>
      {full.data?.id === notice.id ? <RichTextView html={full.data.content} label={`${notice.title} 正文`} /> : <p role="status">{full.error ? '公告加载失败' : '加载中…'}</p>}
    </Modal>
  );
}
