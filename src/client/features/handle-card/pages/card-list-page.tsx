import { useLocation } from 'wouter';
import { card } from '../../../../shared/api';
import { CARD_CATEGORIES, CARD_STATES, cardCategoryLabel, cardStateLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { CardNoLink, cardViewPath } from '../../../business/desk/card-no-link';
import { codeFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';
import { useApi } from '../../../lib/use-api';

const columns: ListColumn<typeof card.cardPage>[] = [
  { id: 'cardNo', header: '卡号', fixed: true, cell: (c) => <CardNoLink cardNo={c.cardNo} /> },
  { id: 'state', header: '状态', cell: (c) => cardStateLabel(c.state) },
  { id: 'category', header: '类别', cell: (c) => cardCategoryLabel(c.category) },
  { id: 'holder', header: '持卡人', cell: (c) => (c.holder ? `${c.holder.name ?? '未实名'} ${c.holder.phone}` : <span className="text-gray-600">不记名</span>) },
  { id: 'balance', header: '余额（元）', align: 'right', sort: 'balance', cell: (c) => fenToYuan(c.balance), className: 'tabular-nums' },
  { id: 'issuedDate', header: '发卡日期', sort: 'issuedDate', cell: (c) => formatDateTime(c.issuedDate, 'YYYY-MM-DD'), className: 'tabular-nums' },
];

/** 卡片列表 (ListCard): the area's cards by number prefix, state and category; Enter opens 卡片详情. */
export function CardListPage() {
  const list = useResourceList({
    endpoint: card.cardPage,
    filters: {
      cardNo: textFilter('卡号', { placeholder: '卡号或其开头几位', maxLength: 16 }),
      state: codeFilter('状态', CARD_STATES),
      category: codeFilter('类别', CARD_CATEGORIES),
    },
  });
  const [, navigate] = useLocation();
  // The area's cards by state, whatever the filters: what the card stock is.
  const counts = useApi(card.cardStateCounts, {});
  const summary = counts.data;
  return (
    <ScreenSection title="卡片列表">
      {summary && (
        <p className="mb-3 text-sm text-gray-700">
          共 {summary.total} 张：{summary.byState.map((s) => `${cardStateLabel(s.state)} ${s.count}`).join('，')}
        </p>
      )}
      <ResourceTable
        list={list}
        id="card.list"
        label="卡片列表"
        columns={columns}
        rowKey={(c) => c.id}
        onRowActivate={(c) => navigate(cardViewPath(c.cardNo))}
        activateHint="按 Enter 打开卡片详情"
      />
    </ScreenSection>
  );
}
