import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { Code, Msg } from '../../shared/api';
import { AppError, isDatabaseUnavailable } from '../lib/errors';

/** The API's two roots (spec §7); everything else is the console or its files. */
export const isApiPath = (url: string) => url.startsWith('/busline/') || url.startsWith('/buscodepc/');

/** Fastify's own errors, in Chinese and in the envelope. */
const FASTIFY_ERRORS: Record<string, { status: number; code: number; msg: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: Code.BAD_REQUEST, msg: Msg.badJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: Code.BAD_REQUEST, msg: '请求内容不能为空' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: Code.TOO_LARGE, msg: Msg.tooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: Code.UNSUPPORTED_MEDIA, msg: Msg.unsupportedMedia },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: Code.BAD_REQUEST, msg: '请求长度不正确' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: Code.BAD_REQUEST, msg: '请求内容类型不正确' },
  FST_ERR_BAD_URL: { status: 400, code: Code.BAD_REQUEST, msg: '请求地址不正确' },
};

/** No stack trace, SQL or library message ever leaves the server: only the envelope. */
export function registerEnvelope(app: FastifyInstance, hooks: { onForbidden(req: FastifyRequest, err: AppError): Promise<void> }): void {
  app.setErrorHandler(async (err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      // Refusals are audited here, once, wherever in the request they were raised.
      if (err.httpStatus === 403) await hooks.onForbidden(req, err).catch((e: unknown) => req.log.error({ err: e }, 'audit of a refusal failed'));
      void reply.headers(err.headers);
      return reply.status(err.httpStatus).send({ code: err.code, msg: err.message, data: err.data });
    }
    if (clientWentAway(err, req)) {
      // Not the database's ECONNRESET but the client's: nobody is left to answer, nothing is wrong here.
      req.log.info('client closed the connection before its request was complete');
      return reply.hijack();
    }
    const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
    if (known) return reply.status(known.status).send({ code: known.code, msg: known.msg, data: null });
    if (isDatabaseUnavailable(err)) {
      // The pool reconnects by itself; the console reads 503 as 服务器维护中 and the user retries.
      req.log.warn({ err }, 'database unavailable');
      return reply.status(503).header('retry-after', '2').send({ code: Code.UNAVAILABLE, msg: Msg.unavailable, data: null });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ code: err.statusCode, msg: '请求不正确', data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: Code.INTERNAL, msg: Msg.internal, data: null });
  });
}

/**
 * The error is the request's own stream failing because its client left mid-body (Node's
 * ECONNRESET "aborted"), which would otherwise read as a lost database connection.
 */
function clientWentAway(err: unknown, req: FastifyRequest): boolean {
  const own = req.raw.errored;
  if (!own) return false;
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (e === own) return true;
  return false;
}

/** A path naming a file (`/assets/x.js`, `/favicon.ico`) that is missing is a 404, not the console page. */
const looksLikeFile = (url: string) => /\.[A-Za-z0-9]{1,8}$/.test(url.split('?')[0] ?? '');

export function registerNotFound(app: FastifyInstance, spa: { indexHtml: string | null; pagePolicy?: () => Promise<string> }): void {
  app.setNotFoundHandler(async (req, reply) => {
    const page = (req.method === 'GET' || req.method === 'HEAD') && !isApiPath(req.url) && !looksLikeFile(req.url);
    if (page && spa.indexHtml !== null) {
      if (spa.pagePolicy) reply.header('content-security-policy', await spa.pagePolicy());
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(spa.indexHtml);
    }
    return reply.status(404).send({ code: Code.NOT_FOUND, msg: Msg.notFound, data: null });
  });
}
