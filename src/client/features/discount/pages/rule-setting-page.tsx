import { useLocation } from 'wouter';
import { discount } from '../../../../shared/api';
import { type DiscountProduct, PRODUCT_STATE } from '../../../../shared/api/discount';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { choiceFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { queryText } from '../../../lib/http';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { ticketTypeLabel } from '../../../../shared/api/card';
import { pagePath } from '../../../../shared/modules';
import { TICKET_OPTIONS } from '../components/discount-filters';

const columns: ListColumn<typeof discount.productPage>[] = [
  { id: 'name', header: '名称', fixed: true, cell: (p) => <span className="font-medium text-gray-800">{p.name}</span> },
  { id: 'ticketType', header: '票种', cell: (p) => ticketTypeLabel(p.ticketType) },
  { id: 'price', header: '价格（元）', sort: 'price', align: 'right', cell: (p) => fenToYuan(p.price), className: 'tabular-nums' },
  { id: 'validDays', header: '有效天数', align: 'right', cell: (p) => p.validDays, className: 'tabular-nums' },
  { id: 'status', header: '状态', cell: (p) => <FlowBadge flow={PRODUCT_STATE} code={p.status} /> },
  { id: 'orders', header: '订单数', align: 'right', cell: (p) => p.orders, className: 'tabular-nums' },
  { id: 'description', header: '说明', cell: (p) => p.description ?? '—', className: 'max-w-56 truncate', hiddenByDefault: true },
  { id: 'district', header: '区域', cell: (p) => p.districtName ?? '—', hiddenByDefault: true },
  { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (p) => formatDateTime(p.updatedDate), className: 'tabular-nums' },
];

/** The product and its district, as every question and answer about it names it. */
const named = (p: DiscountProduct) => `优惠卡「${p.name}」（${p.districtName ?? '未知区域'}）`;
const verb = (to: DiscountProduct['status']) => (to ? '上架' : '下架');
/** The status a product moves to: its flow's one target (上架 ↔ 下架). */
const next = (p: DiscountProduct) => PRODUCT_STATE.targets(p.status)[0] ?? p.status;

/**
 * 规则设置 (RuleSetting): the area's discount-card products with their order counts. Those who
 * manage them edit (on 规则编辑), put on or take off sale and delete, each confirmed first; the
 * server keeps a product that has orders and says so, which is shown as it says it.
 */
export function RuleSettingPage() {
  const [, navigate] = useLocation();
  const list = useResourceList({
    endpoint: discount.productPage,
    record: 'discount-card',
    filters: {
      name: textFilter('名称', { placeholder: '名称中的字' }),
      ticketType: choiceFilter('票种', TICKET_OPTIONS),
      status: flowFilter(PRODUCT_STATE),
    },
  });
  const { filterQuery } = list;
  const totals = useApi(discount.productTotal, { query: filterQuery });
  const canEdit = useAllowed(discount.productSave.permission);
  const noArea = useNoAreaChosen();

  const add = () => navigate(pagePath('specialCode', 'rule-edit'));
  useScreenAction(['specialCode', 'rule-setting', 'add'], () => {
    if (canEdit && !noArea) add();
  });

  const actions = useRowActions<DiscountProduct>(
    [
      { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: discount.productSave.permission, open: (p) => navigate(pagePath('specialCode', 'rule-edit', { query: { id: p.id } })) },
      // Riders buy (or stop buying) at once: asked first, naming what the change does to them.
      callAction({
        id: 'status',
        label: (p) => verb(next(p)),
        hotkey: 's',
        permission: discount.productStatus.permission,
        danger: (p) => next(p) === 0,
        endpoint: discount.productStatus,
        input: (p) => ({ query: { id: p.id, status: queryText(next(p)), rowVersion: p.rowVersion } }),
        done: (p) => `${named(p)}已${verb(next(p))}`,
        confirm: {
          title: (p) => `${verb(next(p))}优惠卡`,
          body: (p) =>
            next(p) === 0 ? (
              <p>
                确定下架优惠卡 <b>{p.name}</b> 吗？下架后乘客不能再购买，已购买的不受影响。
              </p>
            ) : (
              <p>
                确定上架优惠卡 <b>{p.name}</b>（{fenToYuan(p.price)} 元 · {ticketTypeLabel(p.ticketType)} · {p.validDays} 天）吗？上架后乘客即可购买。
              </p>
            ),
        },
      }),
      callAction({
        id: 'delete',
        label: '删除',
        permission: discount.productDelete.permission,
        danger: true,
        endpoint: discount.productDelete,
        input: (p) => ({ query: { id: p.id } }),
        done: (p) => `已删除${named(p)}`,
        confirm: {
          title: (p) => `删除${named(p)}`,
          irreversible: true,
          body: (p) => (
            <p>
              确定删除 <b>{p.districtName ?? '未知区域'}</b> 的优惠卡 <b>{p.name}</b> 吗？{p.orders > 0 ? `它已有 ${p.orders} 笔订单，服务器会拒绝删除，请改为下架。` : '删除后不可恢复。'}
            </p>
          ),
        },
      }),
    ],
    (p) => p.name,
  );

  const t = totals.data;
  return (
    <ScreenSection title="规则设置">
      {t && (
        <p className="mb-3 text-sm text-gray-700">
          共 {t.total} 种，在售 {t.onSale}，已下架 {t.offSale}
        </p>
      )}
      <ResourceTable
        list={list}
        actions={actions}
        id="discount.products"
        label="优惠卡规则列表"
        columns={columns}
        rowKey={(r) => r.id}
        toolbar={
          canEdit && (
            <Button variant="primary" className="h-8" onClick={add} disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined}>
              ＋ 新增规则
            </Button>
          )
        }
      />
    </ScreenSection>
  );
}
