import type { Endpoint } from '../../shared/api';

/**
 * The newest version of each record this console's own saves and moves produced (issue 21), by the
 * record's kind (the endpoint's answer schema: a station's save and its 启用/停用 answer the same
 * row) and id. 撤销 sends the version its change made, or a newer one the same console made since
 * (a rename in the edit dialog before Ctrl+Z): only another person's change refuses it as stale.
 */
const known = new WeakMap<object, Map<number, number>>();

type Versioned = { id: number; rowVersion: number };
const versioned = (answer: unknown): answer is Versioned =>
  !!answer && typeof answer === 'object' && typeof (answer as Versioned).id === 'number' && typeof (answer as Versioned).rowVersion === 'number';

/** Notes the version a save or move answered. */
export function rememberOwn(endpoint: Pick<Endpoint, 'response'>, answer: unknown): void {
  if (!versioned(answer)) return;
  let byId = known.get(endpoint.response);
  if (!byId) known.set(endpoint.response, (byId = new Map()));
  byId.set(answer.id, Math.max(byId.get(answer.id) ?? 0, answer.rowVersion));
}

/** The answer with the newest version this console made of its record since. */
export function newestOwn<T>(endpoint: Pick<Endpoint, 'response'>, answer: T): T {
  if (!versioned(answer)) return answer;
  const mine = known.get(endpoint.response)?.get(answer.id);
  return mine !== undefined && mine > answer.rowVersion ? { ...answer, rowVersion: mine } : answer;
}
