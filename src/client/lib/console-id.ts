/**
 * This tab's console id (`CONSOLE_HEADER` on every call and on the event stream): the live console
 * tells this tab's own changes from everybody else's by it. New at every load: an id, nothing more.
 */
const random = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export const CONSOLE_ID = `c-${random()}`;
