/**
 * The classes of a column pinned to the table's right edge (the row actions): the rows scroll beneath
 * it, so each of its cells paints its own background, the row's state colour included.
 */
export const PIN_END = 'sticky right-0 shadow-[-6px_0_6px_-6px_rgba(0,0,0,0.18)]';
