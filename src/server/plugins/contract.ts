import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type Endpoint, Msg, SUCCESS, isAllowed } from '../../shared/api';
import type { AppDeps, AuthContext } from '../context';
import { CONSOLE_HEADER, consoleIdOf, runWithChangeScope } from '../lib/changes';
import { AppError, badRequest, forbidden } from '../lib/errors';
import { resolveAuth } from './auth';

export interface HandlerInput<E extends Endpoint> {
  params: z.output<E['params']>;
  query: z.output<E['query']>;
  body: z.output<E['body']>;
  req: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<E extends Endpoint> = (input: HandlerInput<E> & { auth: AuthContext }) => Promise<z.input<E['response']>>;
export type PublicHandler<E extends Endpoint> = (input: HandlerInput<E>) => Promise<z.input<E['response']>>;

/** Turns zod issues into one Chinese message for the toast and a per-field list for forms. */
export function validationError(error: z.ZodError): AppError {
  const errors = error.issues.map((i) => ({ field: i.path.join('.'), msg: i.message }));
  const first = errors[0];
  const msg = first ? (first.field && !/[\u4e00-\u9fa5]{2,}/.test(first.msg.slice(0, 8)) ? `${first.field}：${first.msg}` : first.msg) : '参数错误';
  return badRequest(`参数错误：${msg}`, { errors });
}

/** PostgreSQL cannot store U+0000 in text, and no field has a use for it: refuse it up front. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (hasNul(value)) throw badRequest('参数错误：内容不能包含空字符（\\u0000）');
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw validationError(r.error);
  return r.data as z.output<S>;
}

export interface Binder {
  bind<E extends Endpoint>(endpoint: E, handler: Handler<E>): void;
  bindPublic<E extends Endpoint>(endpoint: E, handler: PublicHandler<E>): void;
}

/**
 * Registers contract endpoints: parses params, query and body with the contract's schemas,
 * resolves the session, enforces the declared permission, wraps the answer in the envelope and,
 * outside production, checks the answer against the response schema too.
 */
export function createBinder(app: FastifyInstance, deps: AppDeps, opts: { checkResponses: boolean }): Binder {
  const register = <E extends Endpoint>(
    endpoint: E,
    // Session and permission come before parsing: an outsider learns nothing from validation messages.
    authorize: (req: FastifyRequest) => Promise<AuthContext | null>,
    run: (input: HandlerInput<E> & { auth: AuthContext | null }) => Promise<unknown>,
  ) => {
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      config: { endpointId: endpoint.id },
      handler: async (req, reply) => {
        const auth = await authorize(req);
        const input = {
          params: parse<E['params']>(endpoint.params, req.params),
          query: parse<E['query']>(endpoint.query, req.query),
          body: endpoint.bodyType === 'none' ? ({} as z.output<E['body']>) : parse<E['body']>(endpoint.body, req.body),
          req,
          reply,
          auth,
        };
        // The audit rows the handler writes are published as changes of the endpoint's resource tags.
        const data = await runWithChangeScope(endpoint, consoleIdOf(req.headers[CONSOLE_HEADER]), () => run(input));
        if (endpoint.file) return reply;
        if (opts.checkResponses) {
          const checked = endpoint.response.safeParse(data);
          if (!checked.success) {
            req.log.error({ endpoint: endpoint.id, issues: checked.error.issues }, 'response does not match the contract');
            throw new Error(`response of ${endpoint.id} does not match the contract`);
          }
        }
        return { code: SUCCESS, msg: Msg.ok, data: data ?? null };
      },
    });
  };
  return {
    bindPublic(endpoint, handler) {
      if (endpoint.permission.kind !== 'public') throw new Error(`${endpoint.id} is not public`);
      register(endpoint, async () => null, handler);
    },
    bind(endpoint, handler) {
      if (endpoint.permission.kind === 'public') throw new Error(`${endpoint.id} is public: use bindPublic`);
      register(
        endpoint,
        async (req) => {
          const auth = await resolveAuth(deps, req);
          if (!isAllowed(endpoint.permission, auth)) throw forbidden();
          return auth;
        },
        (input) => {
          if (!input.auth) throw new Error('unreachable: bound endpoint without a session');
          return handler({ ...input, auth: input.auth });
        },
      );
    },
  };
}
