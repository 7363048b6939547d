import { Link } from 'wouter';

/** The card view's address: a card number may sit in it (a phone or citizen id never does). */
export const cardViewPath = (cardNo: string) => `/busUser/card?no=${cardNo}`;

/**
 * A card number in any table or panel: one Tab stop that opens the card view (卡片详情), so an agent
 * reading a list of orders or bindings reaches everything about a card in one keystroke.
 */
export function CardNoLink({ cardNo }: { cardNo: string }) {
  return (
    <Link
      href={cardViewPath(cardNo)}
      className="tabular-nums text-[var(--theme-strong)] underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
      aria-label={`卡片详情 ${cardNo}`}
      // A row's Enter opens the row's own action; the link must not also trigger it.
      onKeyDown={(e) => e.stopPropagation()}
      onClick={(e) => e.stopPropagation()}
    >
      {cardNo}
    </Link>
  );
}
