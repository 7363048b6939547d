import type { FastifyServerOptions } from 'fastify';

/**
 * What the server logs (pino through Fastify, at `LOG_LEVEL`) never holds a request's query values.
 * The spec's own calls carry a phone (`wx-user/page?phone=`), a citizen id (`?citizenCardNo=`) and
 * the operator's password (`familyCard/bind/unBind?…&pwd=`) there, and those forms still answer for
 * the spec's callers. Request lines are logged as their path alone; every other line (an error
 * message or stack naming a URL, Fastify's warnings that quote `request.url`) passes through
 * `redactQueryValues` on its way out, so no path of a log line can leak a value.
 */

/** `?key=value&key2=value2` → `?key=***&key2=***`: the keys stay (they help reading a log), the values go. */
const QUERY_PAIR = /([?&][^=&?#\s"'\\]{1,64}=)[^&#\s"'\\]*/g;

export const REDACTED = '***';

export function redactQueryValues(text: string): string {
  return text.includes('=') ? text.replace(QUERY_PAIR, `$1${REDACTED}`) : text;
}

interface Writable {
  write(chunk: string): unknown;
}

type LoggerOption = FastifyServerOptions['logger'];

/** The request as an access log line: method and path, no query. */
const req = (r: { method: string; url: string }) => ({ method: r.method, url: r.url.split('?')[0] });

/**
 * The app's logger options: Fastify's request serializer without the query, and the destination
 * wrapped so every finished line is scrubbed (`stream` in the options, stdout by default).
 */
export function redactingLogger(option: LoggerOption): LoggerOption {
  if (!option) return false;
  const base = (option === true ? {} : option) as Exclude<LoggerOption, boolean | undefined> & { stream?: Writable; serializers?: Record<string, unknown> };
  const out: Writable = base.stream ?? process.stdout;
  return {
    ...base,
    serializers: { ...base.serializers, req },
    stream: { write: (line: string) => out.write(redactQueryValues(line)) },
  } as LoggerOption;
}
