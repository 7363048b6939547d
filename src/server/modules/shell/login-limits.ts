import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, auth } from '../../../shared/api';
import type { LoginLimits } from '../../config';
import { AppError } from '../../lib/errors';
import { sourceOf } from '../../lib/address';

export const normalizeLogin = (username: string) => username.trim().toLowerCase();

export const tooManyRequests = (msg: string, retryAfterSeconds: number) =>
  new AppError(Code.TOO_MANY_REQUESTS, msg, 429, null, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export interface LoginLimiter {
  /** Attempts per user name from every address together; checked before the password is hashed. */
  checkAccount(req: FastifyRequest, login: string): Promise<void>;
}

/**
 * Attempts per minute, kept in this process's memory by @fastify/rate-limit: per address, checked
 * on arrival before the body is read, and per user name, checked before hashing. A name's count
 * starts only after the source lockout check, so one address (locked after five failures) cannot
 * use up a name's budget and keep its owner out.
 */
export async function registerLoginLimits(app: FastifyInstance, limits: LoginLimits): Promise<LoginLimiter> {
  await app.register(rateLimit, { global: false });
  const perIp =
    limits.perIpPerMinute > 0
      ? app.createRateLimit({ max: limits.perIpPerMinute, timeWindow: 60_000, keyGenerator: (req) => `ip:${sourceOf(req.ip)}` })
      : null;
  const perAccount =
    limits.perAccountPerMinute > 0
      ? app.createRateLimit({ max: limits.perAccountPerMinute, timeWindow: 60_000, keyGenerator: (req) => `account:${accountKey(req)}` })
      : null;

  if (perIp) {
    app.addHook('onRequest', async (req) => {
      if (req.routeOptions.config.endpointId !== auth.authenticate.id) return;
      const r = await perIp(req);
      if (!r.isAllowed && r.isExceeded) throw tooManyRequests(`登录尝试过于频繁，请${Math.ceil(r.ttl / 1000)}秒后再试`, r.ttl / 1000);
    });
  }
  return {
    async checkAccount(req, login) {
      if (!perAccount) return;
      accountKeys.set(req, login);
      const r = await perAccount(req);
      if (!r.isAllowed && r.isExceeded) throw tooManyRequests(`该账号登录尝试过于频繁，请${Math.ceil(r.ttl / 1000)}秒后再试`, r.ttl / 1000);
    },
  };
}

// The limiter derives its key from the request; the checked name is handed over beside it.
const accountKeys = new WeakMap<FastifyRequest, string>();
const accountKey = (req: FastifyRequest) => accountKeys.get(req) ?? '';
