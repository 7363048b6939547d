import { useState } from 'react';
import {
  HELP_AUDIENCE,
  HELP_DOC_STATUS,
  HELP_EDITOR,
  type HelpCatalog,
  type HelpDoc,
  helpCatalogDelete,
  helpCatalogTree,
  helpDocDelete,
  helpDocExport,
  helpDocPage,
  helpDocTotal,
  helpDocUpdateStatus,
} from '../../../../shared/api/help';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { flowFilter, textFilter } from '../../../components/resource/list-filters';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { useScreenAction } from '../../../lib/screen-action';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { HelpCatalogDialog, HelpDocDialog, HelpPreviewDialog, pageTitleOf } from '../components/help-dialogs';

const columns: ListColumn<typeof helpDocPage>[] = [
  { id: 'title', header: '标题', fixed: true, cell: (d) => <span className="font-medium text-gray-800">{d.title}</span> },
  { id: 'catalog', header: '目录', cell: (d) => d.catalogName },
  { id: 'audience', header: '对象', cell: (d) => <FlowBadge flow={HELP_AUDIENCE} code={d.audience} /> },
  { id: 'page', header: '绑定页面', cell: (d) => pageTitleOf(d.pageKey) },
  { id: 'district', header: '区域', cell: (d) => d.districtName ?? '全市' },
  { id: 'status', header: '状态', cell: (d) => <FlowBadge flow={HELP_DOC_STATUS} code={d.status} /> },
  { id: 'views', header: '浏览', sort: 'views', align: 'right', cell: (d) => d.views, className: 'tabular-nums' },
  // Which screens confuse staff: many views and many 没用 say the guide needs work.
  { id: 'votes', header: '有用 / 没用', align: 'right', cell: (d) => `${d.helpful} / ${d.unhelpful}`, className: 'tabular-nums' },
  { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (d) => formatDateTime(d.updatedDate, 'YYYY-MM-DD HH:mm'), className: 'tabular-nums' },
];

const move = (d: HelpDoc, toStatus: HelpDoc['status']) => ({ body: { id: d.id, fromStatus: d.status, toStatus, rowVersion: d.rowVersion } });

function useDocActions(open: { edit(d: HelpDoc): void; preview(d: HelpDoc): void }) {
  return useRowActions<HelpDoc>(
    [
      { id: 'preview', label: '预览', hotkey: 'v', primary: true, permission: helpDocPage.permission, when: () => true, open: open.preview },
      { id: 'edit', label: '编辑', hotkey: 'e', permission: HELP_EDITOR, when: (d) => d.manageable, open: open.edit },
      callAction({
        id: 'publish',
        label: (d) => (d.status === 2 ? '重新发布' : '发布'),
        hotkey: 'p',
        permission: HELP_EDITOR,
        when: (d) => d.manageable && d.status !== 1,
        endpoint: helpDocUpdateStatus,
        input: (d) => move(d, 1),
        done: (d) => `已发布帮助文档「${d.title}」`,
        undo: { input: (d, moved) => ({ body: { id: d.id, fromStatus: 1 as const, toStatus: 2 as const, rowVersion: moved.rowVersion } }), done: (d) => `已撤销：帮助文档「${d.title}」下线` },
      }),
      callAction({
        id: 'withdraw',
        label: '下线',
        hotkey: 'w',
        danger: true,
        permission: HELP_EDITOR,
        when: (d) => d.manageable && d.status === 1,
        endpoint: helpDocUpdateStatus,
        input: (d) => move(d, 2),
        done: (d) => `已下线帮助文档「${d.title}」`,
        confirm: { title: '下线文档', body: (d) => <p>确定下线帮助文档「{d.title}」（{d.districtName ?? '全市'}）吗？下线后读者不再看到它。</p> },
      }),
      callAction({
        id: 'delete',
        label: '删除',
        hotkey: 'd',
        danger: true,
        permission: HELP_EDITOR,
        when: (d) => d.manageable && d.status !== 1,
        endpoint: helpDocDelete,
        input: (d) => ({ query: { id: d.id } }),
        done: (d) => `已删除帮助文档「${d.title}」`,
        confirm: { title: '删除文档', irreversible: true, body: (d) => <p>确定删除帮助文档「{d.title}」吗？删除后不能恢复。</p> },
      }),
    ],
    (d) => d.title,
  );
}

/**
 * 帮助中心 (HelpCenter): the catalogue tree on the left (the super user reshapes it), the docs of the
 * chosen catalogue through the resource frame on the right, with the editor, the flow and ★ 页内帮助's
 * views and votes. `?action=edit-page&pageKey=…` (编辑本页帮助) opens the page's own doc, or a new one for it.
 */
export function HelpCenterPage() {
  const tree = useApi(helpCatalogTree);
  const catalogs = tree.data ?? [];
  const list = useResourceList({
    endpoint: helpDocPage,
    record: 'helpDoc',
    filters: {
      keyword: textFilter('关键词', { placeholder: '标题或正文' }),
      audience: flowFilter(HELP_AUDIENCE, '对象'),
      status: flowFilter(HELP_DOC_STATUS, '状态'),
    },
    linkFilters: ['catalogId', 'pageKey'],
    // Which guides staff read and which they find wanting, over the filtered docs.
    summary: listSummary(helpDocTotal, '帮助文档统计', (t) => `共 ${t.total} 篇 · 草稿 ${t.byStatus.draft} · 已发布 ${t.byStatus.published} · 已下线 ${t.byStatus.withdrawn} · 浏览 ${t.views} 次 · 有用 ${t.helpful} · 没用 ${t.unhelpful}`),
  });
  const exporter = useExportAction({ on: ['version', 'help-center', 'export'], endpoint: helpDocExport, filters: list.filterQuery, refusal: list.refusal });
  const me = useCurrentUser();
  const canEdit = useAllowed(HELP_EDITOR);
  const superUser = !!me.data?.authority.some((a) => a.name === 'ROLE_APP_ADMIN');
  const [editing, setEditing] = useState<{ doc?: HelpDoc; preset?: { catalogId?: number; pageKey?: string } } | null>(null);
  const [previewing, setPreviewing] = useState<HelpDoc | null>(null);
  const [catalogEdit, setCatalogEdit] = useState<{ catalog?: HelpCatalog; parent?: HelpCatalog } | null>(null);
  const [removing, setRemoving] = useState<HelpCatalog | null>(null);
  const revalidate = useRevalidate();
  const actions = useDocActions({ edit: (doc) => setEditing({ doc }), preview: setPreviewing });
  const chosenId = list.table.filters.catalogId ? Number(list.table.filters.catalogId) : null;
  const chosen = catalogs.find((c) => c.id === chosenId);

  useScreenAction(['version', 'help-center', 'add'], () => canEdit && setEditing({ preset: { catalogId: chosen?.id } }));
  useScreenAction(
    ['version', 'help-center', 'edit-page'],
    (args) => {
      const pageKey = args.get('pageKey') ?? '';
      if (!canEdit || !pageKey) return;
      // The page's own doc this account may change, else a new one bound to the page.
      void api
        .call(helpDocPage, { query: { page: 0, size: 20, pageKey } }, { silent: true })
        .then((p) => setEditing(p.content.find((d) => d.manageable) ? { doc: p.content.find((d) => d.manageable) } : { preset: { pageKey } }))
        .catch(() => setEditing({ preset: { pageKey } }));
    },
    ['pageKey'],
  );

  const removeCatalog = async (c: HelpCatalog) => {
    try {
      await api.call(helpCatalogDelete, { query: { id: c.id } });
      toast.success(`已删除帮助目录「${c.name}」`);
      if (chosenId === c.id) list.table.setFilters({ catalogId: '' });
      void revalidate(helpCatalogDelete);
    } catch {
      // The refusal (docs or catalogues still in it) is in the toast.
    }
    setRemoving(null);
  };

  return (
    <ScreenSection title="帮助中心">
      <div className="flex flex-col gap-3 lg:flex-row">
        <nav aria-label="帮助目录" className="shrink-0 rounded border border-gray-200 bg-white p-2 lg:w-60">
          <ul className="text-sm">
            <li>
              <button type="button" aria-current={chosenId === null ? 'true' : undefined} onClick={() => list.table.setFilters({ catalogId: '' })} className={itemClass(chosenId === null)}>
                全部文档
              </button>
            </li>
            {catalogs.map((c) => (
              <li key={c.id} style={{ paddingLeft: `${(c.level - 1) * 1}rem` }}>
                <button type="button" aria-current={chosenId === c.id ? 'true' : undefined} onClick={() => list.table.setFilters({ catalogId: String(c.id) })} className={itemClass(chosenId === c.id)}>
                  <span>{c.name}</span>
                  <span className="ml-1 text-xs text-gray-500">
                    {HELP_AUDIENCE.label(c.audience)} · {c.docCount}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {superUser && (
            <div className="mt-2 flex flex-wrap gap-1 border-t border-gray-100 pt-2">
              <Button className="h-7" onClick={() => setCatalogEdit({ parent: chosen && chosen.level < 3 ? chosen : undefined })}>
                ＋ 目录
              </Button>
              {chosen && (
                <>
                  <Button className="h-7" onClick={() => setCatalogEdit({ catalog: chosen })}>
                    编辑目录
                  </Button>
                  <Button className="h-7" variant="danger" onClick={() => setRemoving(chosen)}>
                    删除目录
                  </Button>
                </>
              )}
            </div>
          )}
        </nav>
        <div className="min-w-0 flex-1">
          <ResourceTable
            list={list}
            actions={actions}
            id="help.docs"
            label="帮助文档列表"
            columns={columns}
            rowKey={(d) => d.id}
            activateHint={() => '按 Enter 预览'}
            emptyText={list.table.filters.keyword ? '暂无数据：没有标题或正文包含该文字的文档' : '暂无数据'}
            toolbar={
              <>
                <ExportButton action={exporter} />
                {canEdit && (
                  <Button variant="primary" className="h-8" onClick={() => setEditing({ preset: { catalogId: chosen?.id } })}>
                    ＋ 新增文档
                  </Button>
                )}
              </>
            }
          />
        </div>
      </div>
      {editing && <HelpDocDialog key={editing.doc?.id ?? 'new'} doc={editing.doc} tree={catalogs} preset={editing.preset} onClose={() => setEditing(null)} />}
      {previewing && <HelpPreviewDialog doc={previewing} onClose={() => setPreviewing(null)} />}
      {catalogEdit && <HelpCatalogDialog catalog={catalogEdit.catalog} parent={catalogEdit.parent} tree={catalogs} onClose={() => setCatalogEdit(null)} />}
      <ConfirmDialog open={!!removing} title="删除目录" confirmLabel="删除" danger onConfirm={() => removing && void removeCatalog(removing)} onClose={() => setRemoving(null)}>
        <p>确定删除帮助目录「{removing?.name}」吗？目录下还有文档或子目录时不能删除。</p>
      </ConfirmDialog>
    </ScreenSection>
  );
}

const itemClass = (on: boolean) =>
  `flex w-full items-baseline justify-between rounded px-2 py-1 text-left focus-visible:outline-2 focus-visible:outline-[var(--theme)] ${on ? 'bg-[var(--theme)]/10 font-medium text-[var(--theme-strong)]' : 'text-gray-700 hover:bg-gray-50'}`;
