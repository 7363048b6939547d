import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import {
  ADJUST_BUCKET,
  ADJUST_CHECKER,
  ADJUST_MAKER,
  ADJUST_STATUS,
  type Adjustment,
  FREEZER,
  PLAN_EDITOR,
  PLAN_STATUS,
  type RechargePlan,
  WALLET_STATUS,
  type Wallet,
  type WalletStatus,
  adjustCheck,
  adjustExport,
  adjustPage,
  adjustTotal,
  planDelete,
  planExport,
  reconcile,
  planPage,
  planStatus,
  planTotal,
  walletExport,
  walletMsg,
  walletPageByBody,
  walletTotalByBody,
} from '../../../../shared/api/wallet';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useCurrentUser } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { useScreenAction } from '../../../lib/screen-action';
import { useScreenLocation } from '../../../lib/screen-context';
import { walletLookup } from '../paths';
import { AdjustDialog, CheckDialog, WalletDetailDialog, WalletStatusDialog } from '../components/wallet-dialogs';

const TABS = [
  { key: 'plan', label: '储值档位' },
  { key: 'wallet', label: '用户钱包' },
  { key: 'adjust', label: '人工调账' },
  { key: 'reconcile', label: '每日轧账' },
] as const;
type Tab = (typeof TABS)[number]['key'];
const isTab = (v: string | null): v is Tab => TABS.some((t) => t.key === v);

const yuan = (fen: number) => fenToYuan(fen);
/** The palette's 导出 (`?action=export`) runs on whichever tab is shown: only that tab's list is mounted. */
const EXPORT = ['rechargeable', 'recharge-manage', 'export'] as const;
const signed = (fen: number) => `${fen > 0 ? '+' : '−'}${fenToYuan(Math.abs(fen))}`;
const signed0 = (fen: number) => (fen === 0 ? '0' : signed(fen));

/**
 * 储值管理 (ListRechargeManage): three tabs, named by the address (`?tab=`), so the palette and the checker's
 * keyboard task land on the right one: 储值档位, 用户钱包 (a wallet's detail and ledger, 冻结, 调账) and
 * 人工调账 (the checker's queue: j/k, `a` 通过 with the amount retyped, Enter, on to the next).
 */
export function RechargeManagePage() {
  const { search } = useScreenLocation();
  const [, navigate] = useLocation();
  const asked = new URLSearchParams(search).get('tab');
  // `?tab=` is an instruction (a link, the palette): taken when the address names one. The tab's list
  // then writes its own filters to the address, without `tab`, and the tab stays as it is.
  const [tab, setTab] = useState<Tab>(isTab(asked) ? asked : 'plan');
  useEffect(() => {
    if (isTab(asked)) setTab(asked);
  }, [asked]);
  // The asked tab is shown in the same render that reads the address: were it shown only after the
  // effect, the tab on screen would mount first and take an `action=export` meant for the asked one.
  const shown: Tab = isTab(asked) ? asked : tab;
  return (
    <ScreenSection title="储值管理">
      <div role="tablist" aria-label="储值管理" className="mb-3 flex gap-1 border-b border-gray-200">
        {TABS.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            aria-selected={shown === t.key}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${shown === t.key ? 'border-[var(--theme)] font-medium text-gray-900' : 'border-transparent text-gray-600 hover:text-gray-900'}`}
            onClick={() => {
              setTab(t.key);
              navigate(pagePath('rechargeable', 'recharge-manage', { query: { tab: t.key } }));
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TABS.find((t) => t.key === shown)!.label}>
        {shown === 'plan' && <PlansTab />}
        {shown === 'wallet' && <WalletsTab />}
        {shown === 'adjust' && <AdjustmentsTab />}
        {shown === 'reconcile' && <ReconcileTab />}
      </div>
    </ScreenSection>
  );
}

const planColumns: ListColumn<typeof planPage>[] = [
  { id: 'name', header: '档位名称', fixed: true, cell: (p) => <span className="font-medium text-gray-800">{p.name}</span> },
  { id: 'amount', header: '充值（元）', sort: 'amount', align: 'right', cell: (p) => yuan(p.amount), className: 'tabular-nums' },
  { id: 'gift', header: '赠送（元）', align: 'right', cell: (p) => yuan(p.giftAmount), className: 'tabular-nums' },
  { id: 'district', header: '区域', cell: (p) => p.districtName ?? '全市' },
  { id: 'status', header: '状态', cell: (p) => <FlowBadge flow={PLAN_STATUS} code={p.status} /> },
  { id: 'orders', header: '订单数', align: 'right', cell: (p) => p.orders, className: 'tabular-nums' },
  { id: 'sort', header: '排序', sort: 'sort', align: 'right', cell: (p) => p.sort },
  { id: 'updatedDate', header: '更新时间', sort: 'updatedDate', cell: (p) => formatDateTime(p.updatedDate), className: 'tabular-nums', hiddenByDefault: true },
];

function PlansTab() {
  const [, navigate] = useLocation();
  const list = useResourceList({
    endpoint: planPage,
    record: 'recharge-plan',
    filters: { name: textFilter('档位名称'), status: flowFilter(PLAN_STATUS) },
    summary: listSummary(planTotal, '储值档位统计', (t) => `共 ${t.plans} 个档位 · 启用 ${t.enabled} · 停用 ${t.disabled} · 累计订单 ${t.orders} 笔`),
  });
  const exporter = useExportAction({ on: EXPORT, endpoint: planExport, filters: list.filterQuery });
  const canEdit = useAllowed(PLAN_EDITOR);
  const actions = useRowActions<RechargePlan>(
    [
      { id: 'edit', label: '编辑', primary: true, permission: PLAN_EDITOR, when: (p) => p.manageable, to: (p: RechargePlan) => pagePath('rechargeable', 'add-recharge', { query: { id: p.id } }) },
      callAction({
        id: 'toggle',
        label: (p) => (p.status === 1 ? '停用' : '启用'),
        hotkey: 's',
        permission: PLAN_EDITOR,
        when: (p) => p.manageable,
        endpoint: planStatus,
        input: (p) => ({ body: { id: p.id, fromStatus: p.status, toStatus: p.status === 1 ? (0 as const) : (1 as const), rowVersion: p.rowVersion } }),
        done: (p) => `已${p.status === 1 ? '停用' : '启用'}储值档位「${p.name}」`,
      }),
      callAction({
        id: 'delete',
        label: '删除',
        hotkey: 'd',
        danger: true,
        permission: PLAN_EDITOR,
        when: (p) => p.manageable && p.orders === 0,
        endpoint: planDelete,
        input: (p) => ({ query: { id: p.id } }),
        done: (p) => `已删除储值档位「${p.name}」`,
        confirm: { title: '删除储值档位', irreversible: true, body: (p) => <p>确定删除储值档位「{p.name}」吗？删除后不能恢复。</p> },
      }),
    ],
    (p) => p.name,
  );
  return (
    <ResourceTable
      list={list}
      actions={actions}
      id="rechargeable.plans"
      label="储值档位列表"
      columns={planColumns}
      rowKey={(p) => p.id}
      toolbar={
        <>
          <ExportButton action={exporter} />
          {canEdit && (
            <Button variant="primary" className="h-8" onClick={() => navigate(pagePath('rechargeable', 'add-recharge'))}>
              ＋ 新增档位
            </Button>
          )}
        </>
      }
    />
  );
}

const walletColumns: ListColumn<typeof walletPageByBody>[] = [
  { id: 'riderPhone', header: '手机号', fixed: true, cell: (w) => <span className="tabular-nums">{w.riderPhone}</span> },
  { id: 'principal', header: '本金（元）', sort: 'principal', align: 'right', cell: (w) => yuan(w.principal), className: 'tabular-nums' },
  { id: 'gift', header: '赠送（元）', sort: 'gift', align: 'right', cell: (w) => yuan(w.gift), className: 'tabular-nums' },
  { id: 'status', header: '状态', cell: (w) => <FlowBadge flow={WALLET_STATUS} code={w.status} /> },
  { id: 'district', header: '区域', cell: (w) => w.districtName ?? '—' },
  { id: 'updatedDate', header: '最近变动', sort: 'updatedDate', cell: (w) => formatDateTime(w.updatedDate), className: 'tabular-nums' },
];

type WalletOpen = { kind: 'detail'; id: number } | { kind: 'status'; wallet: Wallet; to: WalletStatus } | { kind: 'adjust'; wallet: Wallet } | null;

function WalletsTab() {
  const list = useResourceList({
    endpoint: walletPageByBody,
    record: 'wallet',
    filters: { phone: textFilter('手机号', { placeholder: '完整手机号' }), cardNo: textFilter('卡号', { placeholder: '完整卡号' }), status: flowFilter(WALLET_STATUS) },
    // A phone or card number typed as a filter never sits in a request URL or the address.
    privateFilters: ['phone', 'cardNo'],
    summary: listSummary(
      walletTotalByBody,
      '用户钱包合计',
      (t) => `共 ${t.wallets} 个钱包 · 本金 ${yuan(t.principal)} 元 · 赠送 ${yuan(t.gift)} 元 · 合计 ${yuan(t.principal + t.gift)} 元 · 正常 ${t.normal} · 冻结 ${t.frozen}（${yuan(t.frozenBalance)} 元） · 已注销 ${t.closed}`,
    ),
  });
  const { table } = list;
  // The export takes neither the phone nor the card number (they would sit in the task's address).
  const { phone: _phone, cardNo: _cardNo, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: EXPORT, endpoint: walletExport, filters: exportFilters });
  // 查钱包 from the palette: the number arrives through memory.
  const handed = walletLookup.useHandOff();
  useEffect(() => {
    if (!handed) return;
    const v = handed.q.replace(/[\s-]/g, '');
    table.setFilters(/^1\d{10}$/.test(v) ? { phone: v, cardNo: '' } : { cardNo: v, phone: '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handed]);
  const [open, setOpen] = useState<WalletOpen>(null);
  const actions = useRowActions<Wallet>(
    [
      { id: 'detail', label: '详情', fullLabel: '钱包详情与流水', primary: true, permission: walletMsg.permission, open: (w) => setOpen({ kind: 'detail', id: w.id }) },
      { id: 'freeze', label: '冻结', hotkey: 'f', danger: true, permission: FREEZER, when: (w) => w.status === 1, open: (w) => setOpen({ kind: 'status', wallet: w, to: 2 }) },
      { id: 'unfreeze', label: '解冻', hotkey: 'u', permission: FREEZER, when: (w) => w.status === 2, open: (w) => setOpen({ kind: 'status', wallet: w, to: 1 }) },
      { id: 'close', label: '注销', hotkey: 'c', danger: true, permission: FREEZER, when: (w) => w.status !== 0 && w.principal === 0 && w.gift === 0, open: (w) => setOpen({ kind: 'status', wallet: w, to: 0 }) },
      { id: 'adjust', label: '调账', fullLabel: '人工调账', hotkey: 'm', permission: ADJUST_MAKER, when: (w) => w.status !== 0, open: (w) => setOpen({ kind: 'adjust', wallet: w }) },
    ],
    (w) => w.riderPhone,
  );
  return (
    <ResourceTable
      list={list}
      actions={actions}
      id="rechargeable.wallets"
      label="用户钱包列表"
      columns={walletColumns}
      rowKey={(w) => w.id}
      activateHint="按 Enter 查看钱包详情与流水"
      emptyText={table.filters.phone || table.filters.cardNo ? '暂无数据：手机号和卡号需完整输入' : '暂无数据'}
      toolbar={<ExportButton action={exporter} title={table.filters.phone || table.filters.cardNo ? '导出本区域的钱包（不按手机号、卡号筛选）' : undefined} />}
    >
      {open?.kind === 'detail' && <WalletDetailDialog id={open.id} onClose={() => setOpen(null)} />}
      {open?.kind === 'status' && <WalletStatusDialog wallet={open.wallet} to={open.to} onClose={() => setOpen(null)} />}
      {open?.kind === 'adjust' && <AdjustDialog wallet={open.wallet} onClose={() => setOpen(null)} />}
    </ResourceTable>
  );
}

const adjustColumns: ListColumn<typeof adjustPage>[] = [
  { id: 'riderPhone', header: '手机号', fixed: true, cell: (a) => <span className="tabular-nums">{a.riderPhone}</span> },
  { id: 'bucket', header: '账户', cell: (a) => ADJUST_BUCKET.label(a.bucket) },
  { id: 'delta', header: '金额（元）', align: 'right', cell: (a) => <span className={a.delta < 0 ? 'text-red-700' : ''}>{signed(a.delta)}</span>, className: 'tabular-nums' },
  { id: 'reason', header: '原因', cell: (a) => a.reason },
  { id: 'status', header: '状态', cell: (a) => <FlowBadge flow={ADJUST_STATUS} code={a.status} /> },
  { id: 'maker', header: '申请人', cell: (a) => a.makerName ?? '—' },
  { id: 'checker', header: '复核人', cell: (a) => a.checkerName ?? '—' },
  { id: 'createdDate', header: '申请时间', sort: 'createdDate', cell: (a) => formatDateTime(a.createdDate), className: 'tabular-nums' },
];

function AdjustmentsTab() {
  const list = useResourceList({
    endpoint: adjustPage,
    record: 'wallet-adjust',
    filters: { status: flowFilter(ADJUST_STATUS) },
    summary: listSummary(adjustTotal, '人工调账合计', (t) => {
      const of = (code: number) => t.byStatus[String(code)] ?? { count: 0, principal: 0, gift: 0 };
      const net = (code: number) => `本金 ${signed0(of(code).principal)} 元 · 赠送 ${signed0(of(code).gift)} 元`;
      return `共 ${t.total} 笔 · 待复核 ${of(0).count} 笔（${net(0)}${t.pendingNeedsSuper ? `，${t.pendingNeedsSuper} 笔需超级管理员复核` : ''}） · 已生效 ${of(1).count} 笔（${net(1)}） · 已驳回 ${of(2).count} · 已撤回 ${of(3).count}`;
    }),
  });
  const exporter = useExportAction({ on: EXPORT, endpoint: adjustExport, filters: list.filterQuery });
  const current = useCurrentUser().data;
  const me = current?.aId;
  // Above the single-adjustment limit only the super user approves: others are not offered 通过.
  const superUser = current?.authority.some((r) => r.name === 'ROLE_APP_ADMIN') ?? false;
  const [checking, setChecking] = useState<{ row: Adjustment; to: 1 | 2 } | null>(null);
  // The queue's rhythm: once a decision is stored and the list has it, the cursor and the focus go
  // to the next request (the decided one left the 待复核 list, or stays decided in 全部), so `a` again
  // is the next approval without touching the mouse.
  const [decided, setDecided] = useState<{ id: number; index: number } | null>(null);
  const [cursorKey, setCursorKey] = useState<number | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const { rows } = list;
  useEffect(() => {
    if (!decided) return;
    const still = rows.find((r) => r.id === decided.id);
    if (still && still.status === 0) return;
    setDecided(null);
    const index = Math.min(still ? decided.index + 1 : decided.index, rows.length - 1);
    const next = rows[index];
    if (!next) return;
    setCursorKey(next.id);
    requestAnimationFrame(() => wrap.current?.querySelectorAll<HTMLElement>('tbody tr')[index]?.focus());
  }, [rows, decided]);
  // Arriving by the queue's chord (g m, the palette's 待复核调账): the first request this account may
  // decide takes the cursor and the focus, so `a` is the first key.
  const focusHead = useRef(false);
  useScreenAction(['rechargeable', 'recharge-manage', 'check'], () => {
    focusHead.current = true;
  });
  useEffect(() => {
    if (!focusHead.current || me === undefined || list.result.isLoading) return;
    const index = rows.findIndex((r) => r.status === 0 && r.makerId !== me);
    if (index < 0) return;
    focusHead.current = false;
    setCursorKey(rows[index]!.id);
    requestAnimationFrame(() => wrap.current?.querySelectorAll<HTMLElement>('tbody tr')[index]?.focus());
  }, [rows, me, list.result.isLoading]);
  const actions = useRowActions<Adjustment>(
    [
      // The maker's own request is not offered for approval (the server refuses it in SQL as well).
      { id: 'approve', label: '通过', fullLabel: '复核通过', hotkey: 'a', primary: true, permission: ADJUST_CHECKER, when: (a) => a.status === 0 && a.makerId !== me && (!a.needsSuper || superUser), open: (a) => setChecking({ row: a, to: 1 }) },
      { id: 'reject', label: '驳回', hotkey: 'r', danger: true, permission: ADJUST_CHECKER, when: (a) => a.status === 0 && a.makerId !== me, open: (a) => setChecking({ row: a, to: 2 }) },
      callAction({
        id: 'withdraw',
        label: '撤回',
        hotkey: 'w',
        permission: ADJUST_MAKER,
        when: (a) => a.status === 0 && a.makerId === me,
        endpoint: adjustCheck,
        input: (a) => ({ body: { id: a.id, fromStatus: 0 as const, toStatus: 3 as const } }),
        done: (a) => `已撤回人工调账 ${signed(a.delta)} 元`,
        confirm: { title: '撤回调账', body: (a) => <p>确定撤回对 {a.riderPhone} 的调账 {signed(a.delta)} 元吗？</p> },
      }),
    ],
    (a) => `${a.riderPhone} ${signed(a.delta)}`,
  );
  const done = () => {
    if (checking) setDecided({ id: checking.row.id, index: Math.max(0, rows.findIndex((r) => r.id === checking.row.id)) });
    setChecking(null);
  };
  return (
    <div ref={wrap}>
      <ResourceTable
        list={list}
        actions={actions}
        id="rechargeable.adjustments"
        label="人工调账列表"
        columns={adjustColumns}
        rowKey={(a) => a.id}
        cursorKey={cursorKey}
        activateHint="按 a 复核通过（需再次输入金额），r 驳回"
        toolbar={<ExportButton action={exporter} />}
      >
        {checking && <CheckDialog adjustment={checking.row} to={checking.to} onClose={() => setChecking(null)} onDone={done} />}
      </ResourceTable>
    </div>
  );
}

/** The proofs as the broken row names them. */
const PROOF_LABEL = { ledger: '流水≠余额', orders: '本金≠订单', gift: '赠送≠订单', refunds: '退款记录≠退款流水' } as const;

/**
 * ★ 每日轧账: the four proofs over the area now (Σ ledger = balance; paid − refunded − consumed +
 * adjusted = principal; the orders' gift = gift; the refund ledger = the refund rows), a red row per
 * broken wallet naming the proofs it fails and pointing at its first bad ledger row (the first 200,
 * with how many in all), the nightly run's outcome, and the stored-value liability at the end of
 * each day (principal and gift apart) for finance.
 */
function ReconcileTab() {
  const r = useApi(reconcile, { query: { days: 30 } });
  const [open, setOpen] = useState<number | null>(null);
  const d = r.data;
  if (!d) return <p role="status" className="text-sm text-gray-700">{r.error ? '轧账失败，请稍后重试' : '轧账中…'}</p>;
  return (
    <div className="space-y-4">
      <p className={`rounded px-3 py-2 text-sm ${d.brokenCount ? 'bg-red-50 text-red-800' : 'bg-green-50 text-green-800'}`} role="status">
        {formatDateTime(d.checkedDate)} 轧账：{d.wallets} 个钱包，本金 {yuan(d.principal)} 元，赠送 {yuan(d.gift)} 元，
        {!d.brokenCount ? '全部平衡' : d.brokenCount > d.broken.length ? `共 ${d.brokenCount} 个不平，列出前 ${d.broken.length} 个` : `${d.brokenCount} 个不平`}
        {d.lastRun && `（夜间轧账 ${d.lastRun.day}：${d.lastRun.broken ? `${d.lastRun.broken} 个不平` : '全部平衡'}，用时 ${d.lastRun.ms} ms）`}
      </p>
      {d.broken.length > 0 && (
        <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label="不平的钱包（可横向滚动）">
          <table aria-label="不平的钱包" className="w-full text-sm [&_td]:px-2 [&_td]:whitespace-nowrap [&_th]:px-2 [&_th]:whitespace-nowrap">
            <thead>
              <tr className="border-b text-left text-gray-600">
                <th className="py-1">钱包</th>
                <th>手机号</th>
                <th>不平项</th>
                <th className="text-right">本金</th>
                <th className="text-right">流水合计本金</th>
                <th className="text-right">按订单应有本金</th>
                <th className="text-right">赠送 / 流水合计 / 按订单应有</th>
                <th className="text-right">退款记录 / 退款流水</th>
                <th>首条异常流水</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {d.broken.map((b) => (
                <tr key={b.walletId} className="border-b border-red-100 bg-red-50 tabular-nums text-red-900">
                  <td className="py-1">{b.walletId}</td>
                  <td>{b.riderPhone}</td>
                  <td>{b.failed.map((f) => PROOF_LABEL[f]).join('、')}</td>
                  <td className="text-right">{yuan(b.principal)}</td>
                  <td className="text-right">{yuan(b.ledgerPrincipal)}</td>
                  <td className="text-right">{yuan(b.ordersPrincipal)}</td>
                  <td className="text-right">
                    {yuan(b.gift)} / {yuan(b.ledgerGift)} / {yuan(b.ordersGift)}
                  </td>
                  <td className="text-right">
                    {yuan(b.refundsRecorded)} / {yuan(b.ledgerRefunded)}
                  </td>
                  <td>{b.firstBadLedgerId ? `#${b.firstBadLedgerId}（${formatDateTime(b.firstBadAt)}）` : b.failed.includes('ledger') ? '流水连贯，余额被改动' : '流水连贯'}</td>
                  <td>
                    <Button className="h-7" onClick={() => setOpen(b.walletId)}>
                      查看流水
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section aria-label="储值负债">
        <h3 className="mb-2 text-sm font-medium text-gray-900">储值负债（每日日终，近30天）</h3>
        <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label="储值负债（可横向滚动）">
          <table aria-label="储值负债" className="w-full max-w-xl text-sm [&_td]:px-2 [&_td]:whitespace-nowrap [&_th]:px-2 [&_th]:whitespace-nowrap">
            <thead>
              <tr className="border-b text-left text-gray-600">
                <th className="py-1">日期</th>
                <th className="text-right">本金（元）</th>
                <th className="text-right">赠送（元）</th>
                <th className="text-right">合计（元）</th>
              </tr>
            </thead>
            <tbody>
              {[...d.liability].reverse().map((l) => (
                <tr key={l.day} className="border-b border-gray-100 tabular-nums">
                  <td className="py-1">{l.day}</td>
                  <td className="text-right">{yuan(l.principal)}</td>
                  <td className="text-right">{yuan(l.gift)}</td>
                  <td className="text-right">{yuan(l.principal + l.gift)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {open !== null && <WalletDetailDialog id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
