import { DEMO_PASSWORD } from '../../src/server/db/seed';
import { type Client, type Measurement, expectOk, measure } from './lib';

export const AUTHENTICATE = '/busline/api/authenticate';

export async function login(client: Client, username: string): Promise<string> {
  const data = expectOk(await client.request('POST', AUTHENTICATE, { json: { username, password: DEMO_PASSWORD } }), `login ${username}`);
  const token = (data as { idToken?: unknown }).idToken;
  if (typeof token !== 'string') throw new Error(`login ${username}: no idToken`);
  return token;
}

/**
 * Sequential logins of one account: scrypt (N=16384, r=8) plus the session transaction. Each
 * login ends the account's previous session, so use an account the read benchmarks do not.
 */
export function benchLogin(client: Client, username: string, opts: { total: number; warmup: number }): Promise<Measurement> {
  return measure(`login (${username})`, { ...opts, concurrency: 1 }, async () => {
    await login(client, username);
  });
}
