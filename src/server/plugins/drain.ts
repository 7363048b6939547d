import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, Msg } from '../../shared/api';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops taking work while still listening: new requests get the 503 envelope with
     * `Connection: close`, requests under way finish (up to `maxMs`), then `graceMs` more of
     * 503s so late clients read an answer instead of a refused connection. Call before close().
     */
    drain(opts: { graceMs: number; maxMs: number }): Promise<void>;
  }
  interface FastifyRequest {
    /**
     * An answer that lasts as long as its client (an event stream): the drain does not wait for it;
     * its handler ends it when the server closes.
     */
    longLived: boolean;
  }
}

export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  const underWay = new Set<FastifyRequest>();
  const done = (req: FastifyRequest) => underWay.delete(req);

  app.decorateRequest('longLived', false);
  app.addHook('onRequest', async (req, reply) => {
    if (!draining) {
      underWay.add(req);
      return;
    }
    return reply.status(503).header('connection', 'close').header('retry-after', '5').send({ code: Code.UNAVAILABLE, msg: Msg.unavailable, data: null });
  });
  app.addHook('onResponse', async (req) => {
    done(req);
  });
  app.addHook('onRequestAbort', async (req) => {
    done(req);
  });
  app.addHook('onSend', async (_req, reply) => {
    // Keep-alive clients are let go while the server drains.
    if (draining) reply.header('connection', 'close');
  });
  // close() without a drain first (tests) still refuses new work while it waits.
  app.addHook('preClose', async () => {
    draining = true;
  });

  app.decorate('drain', async ({ graceMs, maxMs }: { graceMs: number; maxMs: number }) => {
    draining = true;
    const until = Date.now() + maxMs;
    const waiting = () => [...underWay].some((req) => !req.longLived);
    while (waiting() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(graceMs, until - Date.now()))));
  });
}
