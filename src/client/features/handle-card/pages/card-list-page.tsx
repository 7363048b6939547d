import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { type Card, card } from '../../../../shared/api';
import { CARD_CATEGORIES, CARD_STATES, cardCategoryLabel, cardStateLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { type Column, DataTable } from '../../../components/data-table';
import { CardNoLink, cardViewPath } from '../../../business/desk/card-no-link';
import { type FilterDef, withAll } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useListScreen } from '../../../components/use-list-screen';
import { useApi } from '../../../lib/use-api';

const FILTER_KEYS = ['cardNo', 'state', 'category'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** 卡片列表 (ListCard): the area's cards by number prefix, state and category; Enter opens 卡片详情. */
export function CardListPage() {
  const { table } = useListScreen<FilterKey, Card>({ filters: FILTER_KEYS, schema: card.cardPage.query });
  const [, navigate] = useLocation();
  const cards = useApi(card.cardPage, { query: table.query });
  const counts = useApi(card.cardStateCounts, {});
  const filters = useMemo<FilterDef<FilterKey>[]>(
    () => [
      { key: 'cardNo', label: '卡号', type: 'text', placeholder: '卡号或其开头几位', maxLength: 16 },
      { key: 'state', label: '状态', type: 'select', options: withAll(CARD_STATES) },
      { key: 'category', label: '类别', type: 'select', options: withAll(CARD_CATEGORIES) },
    ],
    [],
  );
  const columns: Column<Card>[] = [
    { id: 'cardNo', header: '卡号', fixed: true, cell: (c) => <CardNoLink cardNo={c.cardNo} /> },
    { id: 'state', header: '状态', cell: (c) => cardStateLabel(c.state) },
    { id: 'category', header: '类别', cell: (c) => cardCategoryLabel(c.category) },
    { id: 'holder', header: '持卡人', cell: (c) => (c.holder ? `${c.holder.name ?? '未实名'} ${c.holder.phone}` : <span className="text-gray-600">不记名</span>) },
    { id: 'balance', header: '余额（元）', align: 'right', sort: 'balance', cell: (c) => fenToYuan(c.balance), className: 'tabular-nums' },
    { id: 'issuedDate', header: '发卡日期', sort: 'issuedDate', cell: (c) => formatDateTime(c.issuedDate, 'YYYY-MM-DD'), className: 'tabular-nums' },
  ];
  const summary = counts.data;
  return (
    <ScreenSection title="卡片列表">
      {summary && (
        <p className="mb-3 text-sm text-gray-700">
          共 {summary.total} 张：{summary.byState.map((s) => `${cardStateLabel(s.state)} ${s.count}`).join('，')}
        </p>
      )}
      <DataTable
        id="card.list"
        label="卡片列表"
        columns={columns}
        rowKey={(c) => c.id}
        result={cards}
        state={table}
        filters={filters}
        onRowActivate={(c) => navigate(cardViewPath(c.cardNo))}
        activateHint="按 Enter 打开卡片详情"
      />
    </ScreenSection>
  );
}
