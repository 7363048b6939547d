import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Code, Msg } from '../../shared/api';
import type { ConnectionLimits } from '../config';
import { AppError } from '../lib/errors';

/** Whether the request announces a body (a body of length 0 is none). */
const announcesBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** A cut-off request's socket is let go after its answer; one whose client does not read goes anyway. */
const LINGER_MS = 2_000;

const tooSlow = () => new AppError(Code.REQUEST_TIMEOUT, Msg.requestTimeout, 408, null, { connection: 'close' });
const makeRoom = () => new AppError(Code.UNAVAILABLE, Msg.busy, 503, null, { connection: 'close', 'retry-after': '2' });

interface Pending {
  /** Set while a body is being received through a meter: ends it with an answer instead of a reset. */
  cut?: (err: AppError) => void;
}

/** Counts a body's bytes on their way to the parser, and can end it with an error the parser answers. */
class BodyMeter extends Transform {
  received = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.length;
    done(null, chunk);
  }
}

/**
 * Sockets that have not delivered a whole request: new ones, ones still sending their head or body,
 * and idle keep-alive ones waiting for their next. They cost the server nothing but a connection,
 * which is exactly what a slow-sending flood takes: 1,100 such sockets from 11 addresses filled
 * `maxConnections` and reset everybody for as long as the request timeout let them stay.
 *
 * Two bounds:
 * - Their own budget (`maxPendingConnections`, a quarter of the connections by default). A new
 *   connection that finds it full closes the one that has waited longest (a slow body is answered
 *   503 first; a head or an idle socket is just closed, which browsers retry on a fresh socket).
 *   Pending sockets can thus never fill `maxConnections`: the rest stays for requests being served
 *   and the event streams' own share, and a newcomer is always let in. A console's request arrives
 *   whole within milliseconds of its connection, so it is never the oldest; a flood can only
 *   push out its own older sockets.
 * - A minimum body rate (`minRequestBodyRate` bytes/s averaged once `requestBodyGraceMs` is over, as
 *   Kestrel's MinRequestBodyDataRate): a body that crawls is answered 408 after seconds instead
 *   of holding its socket for the whole request timeout.
 */
export function guardPendingConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  // Insertion order is waiting order: the first entry has waited longest.
  const pending = new Map<Socket, Pending>();
  const wait = (socket: Socket) => {
    pending.delete(socket);
    pending.set(socket, {});
  };

  const evictOldest = () => {
    const [socket, entry] = pending.entries().next().value as [Socket, Pending];
    pending.delete(socket);
    if (entry.cut) entry.cut(makeRoom());
    else socket.destroy();
  };

  const server = app.server;
  server.on('connection', (socket: Socket) => {
    // Dropped already by the per-address cap.
    if (socket.destroyed) return;
    if (limits.maxPendingConnections > 0) while (pending.size >= limits.maxPendingConnections) evictOldest();
    pending.set(socket, {});
    socket.once('close', () => pending.delete(socket));
  });

  server.on('request', (req: IncomingMessage, res) => {
    const socket = req.socket;
    // The head is in; with its body still coming the socket keeps its place (and its age) in line.
    const entry = pending.get(socket);
    if (entry && announcesBody(req) && !req.complete) req.once('end', () => pending.get(socket) === entry && pending.delete(socket));
    else pending.delete(socket);
    // Answered: idle until its next request, which it may keep for the keep-alive timeout.
    res.once('finish', () => socket.destroyed || wait(socket));
  });

  if (limits.minRequestBodyRate <= 0) return;
  app.addHook('preParsing', async (req, reply, payload) => {
    if (req.raw.complete || !announcesBody(req.raw)) return payload;
    const meter = new BodyMeter();
    // The parser listens for errors only while it reads; a cut after its answer must not throw.
    meter.on('error', () => undefined);
    payload.on('error', (err) => meter.destroy(err));
    payload.pipe(meter);
    const socket = req.raw.socket;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const entry = pending.get(socket);
    const cut = (err: AppError) => {
      clearTimeout(timer);
      if (entry) entry.cut = undefined;
      if (meter.destroyed || meter.writableEnded) return;
      meter.destroy(err);
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
    if (entry) entry.cut = cut;
    // Judged once the grace is over, then again whenever the average would fall below the floor.
    const judge = () => {
      const elapsed = Date.now() - started;
      if (meter.received * 1000 < limits.minRequestBodyRate * elapsed) return cut(tooSlow());
      timer = setTimeout(judge, Math.max(100, (meter.received * 1000) / limits.minRequestBodyRate - elapsed + 1)).unref();
    };
    timer = setTimeout(judge, limits.requestBodyGraceMs).unref();
    const settled = () => {
      clearTimeout(timer);
      if (entry) entry.cut = undefined;
    };
    payload.once('end', settled);
    payload.once('close', settled);
    reply.raw.once('finish', () => {
      settled();
      // Answered before its body was read (a 415, a refusal before parsing): Node drains an unread
      // request itself, but not one already piped here, and its keep-alive socket would stay stuck
      // mid-body for the client's next request. Let the rest run out, as Node would.
      if (!payload.readableEnded && !payload.destroyed) {
        payload.unpipe(meter);
        payload.resume();
      }
    });
    return meter;
  });
}
