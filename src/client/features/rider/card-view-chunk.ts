import { preloadableScreen } from '../../lib/screen';

/**
 * The card view's screen, fetched early by the palette's lookup rows (the agent is still typing the
 * number), so Enter paints it without waiting for its code.
 */
export const cardViewScreen = preloadableScreen(() => import('./pages/card-view-page').then((m) => m.CardViewPage));
