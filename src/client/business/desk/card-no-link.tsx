// The business layer (src/client/business): the call-centre desk's pieces that several features
// share (the card link, the reveal, unbind and refund dialogs, the palette's lookup hand-off). It
// sits above components/ and lib/ and below the features: features and app/ may import it, never
// components/, commands/ or lib/ (eslint.config.js refuses that), and it imports no feature.
import { Link } from 'wouter';
import { type PageAction, pagePath } from '../../../shared/modules';

/** The card view, without a card: a phone or citizen id reaches it through the hand-off, never the address. */
export const CARD_VIEW = pagePath('busUser', 'card');

/** What the card view does once its card is shown: an action its page declares. */
export type CardViewAction = PageAction<'busUser', 'card'>;

/** The card view's address: a card number may sit in it; `action` runs a screen action once it is shown. */
export const cardViewPath = (cardNo: string, action?: CardViewAction) => pagePath('busUser', 'card', { action, query: { no: cardNo } });

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
      // A row's Enter opens the row's own action; the link's Enter must not also trigger it. Every
      // other key (Ctrl+K, Esc, j/k) goes on to the table, dialog and hotkeys.
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.stopPropagation();
      }}
      onClick={(e) => e.stopPropagation()}
    >
      {cardNo}
    </Link>
  );
}
