import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { Code, Msg } from '../../shared/api';
import type { ConnectionLimits } from '../config';
import { sourceOf } from '../lib/address';

/**
 * Fastify/Node options bounding what one connection may hold: a client that sends its head or body
 * slowly (or never) is cut off after the request timeout instead of holding a socket for ever.
 */
export function connectionOptions(limits: ConnectionLimits): Pick<FastifyServerOptions, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout'> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    connectionTimeout: limits.socketIdleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks request deadlines on this beat (30 s by default), which would let a slow
      // client overstay its timeout by up to half a minute.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.requestTimeoutMs / 4) || 1_000)),
    },
  };
}

/** Caps open connections in all and per client address; extra ones are dropped on arrival. */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerIp <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    // Per /64 for IPv6, as for login attempts: one subscriber holds a whole block.
    const ip = sourceOf(socket.remoteAddress ?? '');
    const n = (open.get(ip) ?? 0) + 1;
    if (n > limits.maxConnectionsPerIp) {
      socket.destroy();
      return;
    }
    open.set(ip, n);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
    });
  });
}

const SOCKET_ERRORS: Record<string, { status: string; code: number; msg: string }> = {
  HPE_HEADER_OVERFLOW: { status: '431 Request Header Fields Too Large', code: 431, msg: '请求头过大' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: '408 Request Timeout', code: Code.REQUEST_TIMEOUT, msg: Msg.requestTimeout },
};

/** Errors Node's HTTP parser raises before Fastify sees a request still answer in the envelope. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const known = (err.code && SOCKET_ERRORS[err.code]) || { status: '400 Bad Request', code: Code.BAD_REQUEST, msg: '请求格式不正确' };
  const body = JSON.stringify({ code: known.code, msg: known.msg, data: null });
  socket.end(
    `HTTP/1.1 ${known.status}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  // A client that never reads its answer must not keep the socket either.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/** Fastify's typing takes no hop count, though proxy-addr does: a count becomes "the first n hops". */
export function trustProxyOption(trust: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}
