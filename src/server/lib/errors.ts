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
export const badRequest = (msg: string, data: unknown = null) => new AppError(Code.BAD_REQUEST, msg, 400, data);
export const forbidden = (msg: string = Msg.forbidden) => new AppError(Code.FORBIDDEN, msg, 403);
export const notFound = (msg: string = Msg.recordNotFound) => new AppError(Code.NOT_FOUND, msg, 404);
export const unauthorized = (msg: string = Msg.notLoggedIn, headers: Record<string, string> = {}) =>
  new AppError(Code.UNAUTHORIZED, msg, 401, null, headers);
