import { normalizeIP } from '@fastify/rate-limit';

/**
 * Where a request comes from, as limits count it: the client address, IPv6 taken per /64 (one
 * subscriber's block, which a client can rotate within at will). Used by the login limits, the
 * lockout and the per-address connection cap alike.
 */
export const sourceOf = (ip: string) => normalizeIP(ip, 64);
