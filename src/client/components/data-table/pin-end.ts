/**
 * The classes of a column pinned to the table's right edge (the row actions): the rows scroll beneath
 * it, so each of its cells paints its own background, the row's state colour included. From `lg` up
 * only: on a phone the actions of a row are wider than the screen and would cover the row itself.
 */
export const PIN_END = 'lg:sticky lg:right-0 lg:shadow-[-6px_0_6px_-6px_rgba(0,0,0,0.18)]';
