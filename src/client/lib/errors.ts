import { LOGIN_ELSEWHERE, Msg, SUCCESS } from '../../shared/api/envelope';

/** An answer the console refused: `msg` is what the user was (or would have been) told. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    override readonly message: string,
    readonly status: number,
    /** The envelope's `data`: on a 400, `errors: [{ field, msg }]` for the form. */
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** A 401: the session is over; `reason` says why (the start-up check tells the login page). */
export class SessionEndedError extends ApiError {
  constructor(
    readonly reason: 'elsewhere' | 'expired',
    message: string,
    status: number,
  ) {
    super(401, message, status);
  }
}

export type Failure =
  | { kind: 'message'; code: number; msg: string }
  | { kind: 'session-ended'; reason: 'elsewhere' | 'expired'; msg: string };

export interface Answer {
  status: number;
  body: unknown;
  loginResult: string | null;
}

const envelopeMsg = (body: unknown): string | null =>
  body && typeof body === 'object' && typeof (body as { msg?: unknown }).msg === 'string' ? (body as { msg: string }).msg : null;
const envelopeCode = (body: unknown): number | null =>
  body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number' ? (body as { code: number }).code : null;

/** The gateway's token-relay filter answers this way while the back end restarts. */
const RELAY = /relay|zuul|forwarding|转发/i;

/**
 * Maps an answer to what the user is told, exactly as spec §8 says. Returns null for success.
 */
export function describe(answer: Answer): Failure | null {
  const code = envelopeCode(answer.body);
  const msg = envelopeMsg(answer.body);
  if (answer.status >= 200 && answer.status < 300 && code === SUCCESS) return null;
  if (answer.status === 401 || code === 401) {
    return answer.loginResult === LOGIN_ELSEWHERE
      ? { kind: 'session-ended', reason: 'elsewhere', msg: '您的账号已在其他地方登录，请重新登录' }
      : { kind: 'session-ended', reason: 'expired', msg: '登录已过期，请重新登录' };
  }
  if (answer.status === 403 || code === 403) return { kind: 'message', code: 403, msg: Msg.forbidden };
  // A flood refusal or a body that never finished: the server's own words already tell the user
  // what to do (and how long to wait), so they are not dressed up as a failed request.
  if (answer.status === 429 || code === 429) return { kind: 'message', code: 429, msg: msg?.trim() ? msg : Msg.tooManyRequests };
  if (answer.status === 408 || code === 408) return { kind: 'message', code: 408, msg: msg?.trim() ? msg : Msg.requestTimeout };
  if (answer.status === 502 || answer.status === 503 || (msg && RELAY.test(msg))) return { kind: 'message', code: 502, msg: Msg.unavailable };
  if (answer.status === 500) return { kind: 'message', code: 500, msg: Msg.internal };
  if (msg && /原密码/.test(msg)) return { kind: 'message', code: code ?? answer.status, msg: Msg.oldPasswordWrong };
  if (answer.status >= 200 && answer.status < 300) {
    return { kind: 'message', code: code ?? 0, msg: msg ?? '请求出错：返回内容无法识别' };
  }
  return { kind: 'message', code: code ?? answer.status, msg: `请求出错：${msg ?? `HTTP ${answer.status}`}` };
}

export const TIMEOUT_MSG = '请求超时';
