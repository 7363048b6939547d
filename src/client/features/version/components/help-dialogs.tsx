import { type KeyboardEvent, useEffect } from 'react';
import {
  HELP_AUDIENCE,
  HELP_CATALOG_NAME_MAX,
  HELP_CONTENT_MAX,
  HELP_TITLE_MAX,
  type HelpCatalog,
  type HelpDoc,
  helpCatalogSave,
  helpDocById,
  helpDocSave,
  helpDocView,
} from '../../../../shared/api/help';
import { MODULES } from '../../../../shared/modules';
import { formatDateTime } from '../../../../shared/domain/time';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { RichTextEditor, RichTextView } from '../../../components/rich-text';
import { StaleNote } from '../../../components/stale-note';
import { api } from '../../../lib/api-client';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';

/** The console's pages a staff doc may explain, as `<menu>/<page>` with their menu and title. */
const PAGE_OPTIONS = [
  { value: '', label: '不绑定页面' },
  ...MODULES.flatMap((m) => ('menu' in m ? m.menu.pages.filter((p) => !('planned' in p && p.planned)).map((p) => ({ value: `${m.menu.id}/${p.key}`, label: `${m.menu.title} › ${p.title}` })) : [])),
];
export const pageTitleOf = (key: string | null) => (key ? (PAGE_OPTIONS.find((o) => o.value === key)?.label ?? key) : '—');

/** A catalogue as an option: indented by its level, with whom it is for. */
export const catalogOptions = (tree: readonly HelpCatalog[]) => tree.map((c) => ({ value: String(c.id), label: `${'　'.repeat(c.level - 1)}${c.name}（${HELP_AUDIENCE.label(c.audience)}）` }));

type FullDoc = HelpDoc & { content: string };

/** 新增 / 编辑文档: a doc opened for editing waits for its stored text; a new one may come with a page to explain. */
export function HelpDocDialog({ doc, tree, preset, onClose }: { doc?: HelpDoc; tree: readonly HelpCatalog[]; preset?: { catalogId?: number; pageKey?: string }; onClose(): void }) {
  const full = useApi(helpDocById, doc ? { query: { id: doc.id } } : null, { keepPreviousData: false, revalidateIfStale: true });
  const loaded = full.data && full.data.id === doc?.id ? full.data : undefined;
  if (doc && !loaded) {
    return (
      <Modal open title={`编辑文档 · ${doc.title}`} onClose={onClose}>
        <p role="status" className="text-sm text-gray-700">
          {full.error ? '文档加载失败，请关闭后重试' : '加载中…'}
        </p>
      </Modal>
    );
  }
  return <DocForm doc={loaded} tree={tree} preset={preset} onClose={onClose} />;
}

function DocForm({ doc, tree, preset, onClose }: { doc?: FullDoc; tree: readonly HelpCatalog[]; preset?: { catalogId?: number; pageKey?: string }; onClose(): void }) {
  const noArea = useNoAreaChosen();
  // A page to explain starts in the first staff catalogue unless one was chosen.
  const firstStaff = tree.find((c) => c.audience === 2)?.id;
  const form = useContractForm(helpDocSave, {
    initial: {
      catalogId: String(doc?.catalogId ?? preset?.catalogId ?? (preset?.pageKey ? firstStaff : undefined) ?? ''),
      title: doc?.title ?? '',
      pageKey: doc?.pageKey ?? preset?.pageKey ?? '',
      sort: String(doc?.sort ?? 0),
      content: doc?.content ?? '',
    },
    toInput: (v) => ({
      body: { ...(doc ? { id: doc.id } : {}), catalogId: Number(v.catalogId), title: v.title, content: v.content, pageKey: v.pageKey || null, sort: Number(v.sort || 0) },
    }),
    check: (v) => (!v.catalogId ? { catalogId: '请选择目录' } : null),
    success: (d) => `已保存帮助文档「${d.title}」`,
    onSaved: onClose,
    stale: doc ? { version: doc.rowVersion, valuesOf: (d) => ({ catalogId: String(d.catalogId), title: d.title, pageKey: d.pageKey ?? '', sort: String(d.sort), content: d.content }) } : undefined,
  });
  const { values, errors, set } = form;
  const catalog = tree.find((c) => String(c.id) === values.catalogId);
  const save = () => void form.submit();
  return (
    <Modal open width="max-w-3xl" title={doc ? `编辑文档 · ${doc.title}` : '新增文档'} onClose={onClose} dirty={form.dirty} onSubmit={save} footer={<ModalActions onCancel={onClose} busy={form.busy} />}>
      <div onKeyDown={(e: KeyboardEvent) => saveKey(save)(e)}>
        <FormError>{errors[''] ?? errors.districtId}</FormError>
        {!doc && noArea && <p className="mb-3 text-xs text-gray-600">当前为全部区域：将保存为全市文档。</p>}
        <SelectField label="目录" required placeholder="请选择目录" options={catalogOptions(tree)} value={values.catalogId} onChange={(e) => set('catalogId', e.target.value)} error={errors.catalogId} />
        <Field label="标题" required autoFocus maxLength={HELP_TITLE_MAX} value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} note={<StaleNote form={form} field="title" />} />
        <SelectField
          label="绑定页面"
          options={PAGE_OPTIONS}
          value={values.pageKey}
          onChange={(e) => set('pageKey', e.target.value)}
          error={errors.pageKey}
          disabled={catalog?.audience === 1}
          hint={catalog?.audience === 1 ? '乘客文档不绑定控制台页面' : '员工在该页面按 ? 即可看到这篇文档'}
        />
        <Field label="排序" inputMode="numeric" value={values.sort} onChange={(e) => set('sort', e.target.value)} error={errors.sort} hint="小的在前" />
        <RichTextEditor label="内容" required value={values.content} onChange={(html) => set('content', html)} error={errors.content} maxLength={HELP_CONTENT_MAX} hint="Ctrl+S 保存" />
      </div>
    </Modal>
  );
}

/** 新增 / 编辑目录 (the super user's): a child under a catalogue of up to the second level, for its parent's readers. */
export function HelpCatalogDialog({ catalog, parent, tree, onClose }: { catalog?: HelpCatalog; parent?: HelpCatalog; tree: readonly HelpCatalog[]; onClose(): void }) {
  const form = useContractForm(helpCatalogSave, {
    initial: {
      name: catalog?.name ?? '',
      parentId: String(catalog?.parentId ?? parent?.id ?? ''),
      audience: String(catalog?.audience ?? parent?.audience ?? 2),
      sort: String(catalog?.sort ?? 0),
    },
    toInput: (v) => {
      const p = tree.find((c) => String(c.id) === v.parentId);
      return { body: { ...(catalog ? { id: catalog.id, rowVersion: catalog.rowVersion } : {}), name: v.name, parentId: p ? p.id : null, audience: p ? p.audience : Number(v.audience), sort: Number(v.sort || 0) } };
    },
    success: (c) => `已保存帮助目录「${c.name}」`,
    onSaved: onClose,
  });
  const { values, errors, set } = form;
  // Under a third-level catalogue would be a fourth level: the server says so, the list does not offer it.
  const parents = [{ value: '', label: '（顶级目录）' }, ...catalogOptions(tree.filter((c) => c.level < 3 && c.id !== catalog?.id))];
  return (
    <Modal open title={catalog ? `编辑目录 · ${catalog.name}` : '新增目录'} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} />}>
      <FormError>{errors['']}</FormError>
      <Field label="目录名称" required autoFocus maxLength={HELP_CATALOG_NAME_MAX} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} />
      <SelectField label="上级目录" options={parents} value={values.parentId} onChange={(e) => set('parentId', e.target.value)} error={errors.parentId} hint="目录最多三级" />
      <SelectField
        label="阅读对象"
        options={HELP_AUDIENCE.states.map((s) => ({ value: String(s.code), label: s.label }))}
        value={values.audience}
        onChange={(e) => set('audience', e.target.value)}
        error={errors.audience}
        disabled={!!values.parentId}
        hint={values.parentId ? '与上级目录一致' : undefined}
      />
      <Field label="排序" inputMode="numeric" value={values.sort} onChange={(e) => set('sort', e.target.value)} error={errors.sort} />
    </Modal>
  );
}

/** 预览: the doc as readers see it (through the allow-list); a published one counts as viewed. */
export function HelpPreviewDialog({ doc, onClose }: { doc: HelpDoc; onClose(): void }) {
  const full = useApi(helpDocById, { query: { id: doc.id } }, { keepPreviousData: false });
  const counted = full.data?.id === doc.id && doc.status === 1;
  useEffect(() => {
    if (counted) void viewOnce(doc.id);
  }, [counted, doc.id]);
  return (
    <Modal open width="max-w-3xl" title={`预览 · ${doc.title}`} onClose={onClose}>
      <p className="mb-2 text-xs text-gray-500">
        {doc.catalogName} · {HELP_AUDIENCE.label(doc.audience)} · 更新于 {formatDateTime(doc.updatedDate, 'YYYY-MM-DD HH:mm')} · 浏览 {doc.views} · 有用 {doc.helpful} · 没用 {doc.unhelpful}
      </p>
      {full.data?.id === doc.id ? <RichTextView html={full.data.content} label={`${doc.title} 正文`} /> : <p role="status">加载中…</p>}
    </Modal>
  );
}

const viewed = new Set<number>();
/** One view per preview opened in this tab (a re-render is not a reading). */
function viewOnce(id: number) {
  if (viewed.has(id)) return Promise.resolve();
  viewed.add(id);
  return api.call(helpDocView, { body: { id } }, { silent: true }).then(
    () => setTimeout(() => viewed.delete(id), 60_000),
    () => undefined,
  );
}
