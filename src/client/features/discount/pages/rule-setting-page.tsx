import { useState } from 'react';
import { useLocation } from 'wouter';
import { discount } from '../../../../shared/api';
import type { DiscountProduct } from '../../../../shared/api/discount';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { type Column, DataTable } from '../../../components/data-table';
import { type FilterDef, withAll } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useFilterQuery, useTableState } from '../../../components/table-state';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { queryText } from '../../../lib/http';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { TICKET_TYPES, ticketTypeLabel } from '../../../../shared/api/card';
import { pagePath } from '../../../../shared/modules';

const FILTER_KEYS = ['name', 'ticketType', 'status'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

const FILTERS: readonly FilterDef<FilterKey>[] = [
  { key: 'name', label: '名称', type: 'text', placeholder: '名称中的字', maxLength: 40 },
  { key: 'ticketType', label: '票种', type: 'select', options: withAll(TICKET_TYPES) },
  {
    key: 'status',
    label: '状态',
    type: 'select',
    options: withAll({ 1: '在售', 0: '已下架' }),
  },
];

type Pending = { kind: 'status' | 'delete'; product: DiscountProduct } | null;

/**
 * 规则设置 (RuleSetting): the area's discount-card products with their order counts. Those who
 * manage them edit (on 规则编辑), put on or take off sale and delete, each confirmed first; the
 * server keeps a product that has orders and says so, which is shown as it says it.
 */
export function RuleSettingPage() {
  const [, navigate] = useLocation();
  const table = useTableState<FilterKey>({ filters: FILTER_KEYS, schema: discount.productPage.query });
  const filterQuery = useFilterQuery(table.filters);
  const products = useApi(discount.productPage, { query: table.query });
  const totals = useApi(discount.productTotal, { query: filterQuery });
  const canEdit = useAllowed(discount.productSave.permission);
  const noArea = useNoAreaChosen();
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);

  const edit = (p: DiscountProduct) => navigate(pagePath('specialCode', 'rule-edit', { query: { id: p.id } }));
  const add = () => navigate(pagePath('specialCode', 'rule-edit'));
  useScreenAction(['specialCode', 'rule-setting', 'add'], () => {
    if (canEdit && !noArea) add();
  });

  const confirm = async () => {
    if (!pending || busy) return;
    const { kind, product: p } = pending;
    setBusy(true);
    try {
      if (kind === 'status') {
        const next = p.status === 1 ? 0 : 1;
        await api.call(discount.productStatus, { query: { id: p.id, status: queryText(next) } });
        toast.success(`优惠卡「${p.name}」（${p.districtName ?? '未知区域'}）已${next ? '上架' : '下架'}`);
      } else {
        await api.call(discount.productDelete, { query: { id: p.id } });
        toast.success(`已删除优惠卡「${p.name}」（${p.districtName ?? '未知区域'}）`);
      }
      setPending(null);
    } catch {
      // The server's refusal (已有订单，不能删除…) is in the toast; another try would get the same answer.
      setPending(null);
    } finally {
      setBusy(false);
      void products.mutate();
      void totals.mutate();
    }
  };

  const columns: Column<DiscountProduct>[] = [
    { id: 'name', header: '名称', fixed: true, cell: (p) => <span className="font-medium text-gray-800">{p.name}</span> },
    { id: 'ticketType', header: '票种', cell: (p) => ticketTypeLabel(p.ticketType) },
    { id: 'price', header: '价格（元）', sort: 'price', align: 'right', cell: (p) => fenToYuan(p.price), className: 'tabular-nums' },
    { id: 'validDays', header: '有效天数', align: 'right', cell: (p) => p.validDays, className: 'tabular-nums' },
    { id: 'status', header: '状态', cell: (p) => (p.status === 1 ? <span className="rounded bg-green-50 px-1.5 py-0.5 text-xs text-green-800">在售</span> : <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">已下架</span>) },
    { id: 'orders', header: '订单数', align: 'right', cell: (p) => p.orders, className: 'tabular-nums' },
    { id: 'description', header: '说明', cell: (p) => p.description ?? '—', className: 'max-w-56 truncate', hiddenByDefault: true },
    { id: 'district', header: '区域', cell: (p) => p.districtName ?? '—', hiddenByDefault: true },
    { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (p) => formatDateTime(p.updatedDate), className: 'tabular-nums' },
    ...(canEdit
      ? [
          {
            id: 'actions',
            header: '操作',
            fixed: true,
            cell: (p: DiscountProduct) => (
              <span className="flex gap-1">
                <Button variant="text" onClick={() => edit(p)} aria-label={`编辑 ${p.name}`}>
                  编辑
                </Button>
                <Button variant="text" className={p.status === 1 ? '!text-orange-700' : ''} onClick={() => setPending({ kind: 'status', product: p })} aria-label={`${p.status === 1 ? '下架' : '上架'} ${p.name}`}>
                  {p.status === 1 ? '下架' : '上架'}
                </Button>
                <Button variant="text" className="!text-red-600" onClick={() => setPending({ kind: 'delete', product: p })} aria-label={`删除 ${p.name}`}>
                  删除
                </Button>
              </span>
            ),
          },
        ]
      : []),
  ];

  const t = totals.data;
  const p = pending?.product;
  return (
    <ScreenSection title="规则设置">
      {t && (
        <p className="mb-3 text-sm text-gray-700">
          共 {t.total} 种，在售 {t.onSale}，已下架 {t.offSale}
        </p>
      )}
      <DataTable
        id="discount.products"
        label="优惠卡规则列表"
        columns={columns}
        rowKey={(r) => r.id}
        result={products}
        state={table}
        filters={FILTERS}
        onRowActivate={canEdit ? edit : undefined}
        activateHint={canEdit ? '按 Enter 编辑' : undefined}
        toolbar={
          canEdit && (
            <Button variant="primary" className="h-8" onClick={add} disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined}>
              ＋ 新增规则
            </Button>
          )
        }
      />
      <ConfirmDialog
        open={!!pending}
        title={pending?.kind === 'delete' ? `删除优惠卡「${p?.name ?? ''}」（${p?.districtName ?? '未知区域'}）` : p?.status === 1 ? '下架优惠卡' : '上架优惠卡'}
        irreversible={pending?.kind === 'delete'}
        confirmLabel={pending?.kind === 'delete' ? '删除' : p?.status === 1 ? '下架' : '上架'}
        danger={pending?.kind === 'delete' || p?.status === 1}
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
      >
        {p &&
          (pending?.kind === 'delete' ? (
            <p>
              确定删除 <b>{p.districtName ?? '未知区域'}</b> 的优惠卡 <b>{p.name}</b> 吗？{p.orders > 0 ? `它已有 ${p.orders} 笔订单，服务器会拒绝删除，请改为下架。` : '删除后不可恢复。'}
            </p>
          ) : p.status === 1 ? (
            <p>
              确定下架优惠卡 <b>{p.name}</b> 吗？下架后乘客不能再购买，已购买的不受影响。
            </p>
          ) : (
            <p>
              确定上架优惠卡 <b>{p.name}</b>（{fenToYuan(p.price)} 元 · {ticketTypeLabel(p.ticketType)} · {p.validDays} 天）吗？上架后乘客即可购买。
            </p>
          ))}
      </ConfirmDialog>
    </ScreenSection>
  );
}
