import { Code, Msg } from '../../shared/api';

/** An expected refusal: becomes the `{code, msg, data}` envelope with the given HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    override readonly message: string,
    readonly httpStatus: number = 200,
    readonly data: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A business refusal the console shows as it is (HTTP 200, code 0). */
export const fail = (msg: string, data: unknown = null) => new AppError(Code.FAIL, msg, 200, data);

/** A field the console should put a message under: the same `{ field, msg }` a 400 carries. */
export interface FieldRefusal {
  field: string;
  msg: string;
}

/**
 * A business refusal about one field (用户名已存在 → `login`): `data.errors` names the field, so the
 * console places the message by name, never by matching its text.
 */
export const failOn = (field: string, msg: string) => fail(msg, { errors: [{ field, msg }] satisfies FieldRefusal[] });
export const badRequest = (msg: string, data: unknown = null) => new AppError(Code.BAD_REQUEST, msg, 400, data);
/** `data` may say what the console needs to explain the refusal (never the refused record itself). */
export const forbidden = (msg: string = Msg.forbidden, data: unknown = null) => new AppError(Code.FORBIDDEN, msg, 403, data);
/** A record that is not there is a business answer (HTTP 200); HTTP 404 is kept for unknown API paths. */
export const notFound = (msg: string = Msg.recordNotFound) => new AppError(Code.NOT_FOUND, msg, 200);
export const unauthorized = (msg: string = Msg.notLoggedIn, headers: Record<string, string> = {}) =>
  new AppError(Code.UNAUTHORIZED, msg, 401, null, headers);

/** PostgreSQL's unique_violation, however deep the driver or ORM wrapped it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Runs `work`, answering a unique violation (a race with another writer) with a refusal about `field`. */
export async function uniqueOr<T>(refusal: FieldRefusal, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw failOn(refusal.field, refusal.msg);
    throw err;
  }
}

/**
 * SQLSTATE classes and codes meaning "the database is not there right now", not "the query is
 * wrong": connection exceptions (08…), shutdown / starting up (57P01–57P03), too many connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08\w{3}|57P0[123]|53300)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// pg raises these as plain Errors without a code.
const UNAVAILABLE_MESSAGE = /Connection terminated|not queryable|timeout exceeded when trying to connect|Query read timeout|Client was closed|Cannot use a pool after calling end/i;

/** Whether an error means the database connection was lost or could not be made (answered 503). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  return false;
}
