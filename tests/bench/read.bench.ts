import { type Client, type Measurement, expectOk, measure } from './lib';

export const CURRENT_USER = '/busline/api/user/query/msg';
export const USER_PAGE = '/busline/api/user/query/page?page=0&size=20';
/** The whole city's stations, a page of 20, and a name search, as the 站点 screen asks. */
export const STATION_PAGE = '/busline/api/busStation/list?page=0&size=20';
export const STATION_SEARCH = `/busline/api/busStation/list?page=0&size=20&name=${encodeURIComponent('路')}`;
export const VERSION_PAGE = '/busline/api/bus/line/version/query/version/page?page=0&size=10&status=0';

export interface ReadOptions {
  total: number;
  concurrency: number;
  warmup: number;
}

/** An authenticated GET, `total` times with `concurrency` in flight, each answer checked. */
export function benchRead(client: Client, token: string, name: string, path: string, opts: ReadOptions): Promise<Measurement> {
  return measure(name, opts, async () => {
    expectOk(await client.request('GET', path, { token }), name);
  });
}

/** The page must hold a full page of accounts, or the figure would be for an emptier query. */
export async function checkUserPage(client: Client, token: string): Promise<number> {
  const data = expectOk(await client.request('GET', USER_PAGE, { token }), 'user page') as { content: unknown[]; totalElements: number };
  if (data.content.length !== 20) throw new Error(`user page holds ${data.content.length} rows, expected 20 (of ${data.totalElements})`);
  return data.totalElements;
}
