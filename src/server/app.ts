import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { Code, Msg, system } from '../shared/api';
import { installChineseZodMessages } from '../shared/api/zod-locale';
import { type Clock, type Config, resolvePiiKey, systemClock } from './config';
import type { AppDeps } from './context';
import { imageSourceOf } from './lib/csp-sources';
import { AppError } from './lib/errors';
import { redactingLogger } from './lib/log-redaction';
import { passwordWork } from './lib/password';
import { type Pii, createPii } from './lib/pii';
import type { Database, Db } from './db/connection';
import { createExportRuntime } from './lib/export-tasks';
import { TASK_CHANNEL } from './lib/export-tasks/hub';
import { type PaymentChannel, builtInPaymentChannel } from './lib/payment-channel';
import { CHANGE_CHANNEL, ChangeHub, type ChangeTransport } from './lib/changes';
import { serverSecret } from './db/schema';
import { SERVER_MODULES, bindModules } from './modules';
import { registerLoginLimits } from './modules/shell/login-limits';
import { auditDenied } from './plugins/auth';
import { createBinder } from './plugins/contract';
import { answerClientError, connectionOptions, limitConnections, trustProxyOption } from './plugins/connections';
import { registerDrain } from './plugins/drain';
import { guardPendingConnections } from './plugins/pending-connections';
import { registerEnvelope, registerNotFound } from './plugins/envelope';
import { type ConsolePolicy, consolePolicy, registerSecurityHeaders } from './plugins/security-headers';
import { qrCode } from './modules/settings/service';

export interface BuildOptions {
  /** Timed jobs of the modules (default on); tests that drive a job by hand may turn them off. */
  jobs?: boolean;
  /** The payment channel refunds go to; tests may pass one that fails or waits. */
  payments?: PaymentChannel;
  db: Db;
  config: Config;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Personal-data keys; default: from the config (PII_KEY, or the demo key file). */
  pii?: Pii;
  /** Check every answer against the contract's response schema (on in tests and development). */
  checkResponses?: boolean;
  /** PostgreSQL's extras: the exports' own connection and the channel instances tell each other on. */
  database?: Pick<Database, 'dedicated' | 'channel' | 'listenHere'>;
}

async function loadJwtKey(db: Db): Promise<Uint8Array> {
  await db
    .insert(serverSecret)
    .values({ id: 1, jwtSecret: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecret);
  if (!row) throw new Error('server secret missing');
  return Buffer.from(row.jwtSecret, 'base64');
}

/** How long a page waits for the QR code's address; a slow database leaves the QR code out rather than hold the page. */
const QR_LOOKUP_MS = 1_000;
/**
 * How long a read QR address serves page loads: every unauthenticated GET of a page would otherwise
 * cost a query (a flood of `/x1`, `/x2`… on PGlite's one connection). A save on this instance
 * forgets it at once; other instances' pages follow within this time.
 */
const QR_CACHE_MS = 15_000;

/** The sidebar QR code's address, read at most once per QR_CACHE_MS; concurrent page loads share one read. */
function qrCodeCache(deps: AppDeps) {
  let held: { at: number; read: Promise<string | null> } | null = null;
  return {
    get(): Promise<string | null> {
      const now = Date.now();
      if (!held || now - held.at > QR_CACHE_MS) {
        const read = qrCode(deps);
        held = { at: now, read };
        // A failed read is not kept: the next page asks again.
        read.catch(() => {
          if (held?.read === read) held = null;
        });
      }
      return held.read;
    },
    forget(): void {
      held = null;
    },
  };
}

/**
 * The console page's policy: the base one with the sidebar QR code's origin among the image
 * sources (a super user may change it at any time, on any instance).
 */
async function pagePolicy(app: FastifyInstance, qr: ReturnType<typeof qrCodeCache>, policy: ConsolePolicy): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const address = await Promise.race([qr.get(), new Promise<null>((resolve) => (timer = setTimeout(resolve, QR_LOOKUP_MS, null)))]);
    const source = address ? imageSourceOf(address) : null;
    return policy.withImages(source ? [source] : []);
  } catch (err) {
    app.log.warn({ err }, 'the QR code address was not read for the page policy');
    return policy.base;
  } finally {
    clearTimeout(timer);
  }
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  installChineseZodMessages();
  const clock = opts.clock ?? systemClock;
  const pii = opts.pii ?? createPii(resolvePiiKey(opts.config));
  const { dedicated, channel } = opts.database ?? {};
  // Through the server's logger, as the other jobs' failures (a lost database is expected to be logged, not thrown).
  let logger: FastifyInstance['log'] | null = null;
  const exportLog = (msg: string, err?: unknown) => logger?.error({ err }, `[exports] ${msg}`);
  const exports = createExportRuntime({
    clock,
    kinds: SERVER_MODULES.flatMap((m) => m.exportKinds ?? []),
    // Read when a task runs, after the deps below exist.
    deps: () => deps,
    db: opts.db,
    workerDb: dedicated ? () => dedicated(opts.config.exports.queryTimeoutMs) : undefined,
    transport: channel ? channel(TASK_CHANNEL) : null,
    streams: { perSession: opts.config.exports.streamsPerSession, perAccount: opts.config.exports.streamsPerAccount, max: opts.config.exports.maxStreams },
    ttlMs: opts.config.exports.ttlMs,
    staleMs: opts.config.exports.staleMs,
    // Tests that drive the jobs by hand run the queue by hand too.
    autoRun: opts.jobs !== false,
    log: exportLog,
  });
  const changes = new ChangeHub(changeTransport(opts.database), (msg, err) => logger?.error({ err }, `[changes] ${msg}`));
  const deps: AppDeps = {
    db: opts.db,
    payments: opts.payments ?? builtInPaymentChannel({ refundFails: opts.config.paymentRefundFails }),
    config: opts.config,
    clock,
    exports,
    changes,
    jwtKey: await loadJwtKey(opts.db),
    pii,
    passwords: passwordWork({
      concurrency: opts.config.login.hashConcurrency,
      queue: opts.config.login.hashQueue,
      busy: () => new AppError(Code.UNAVAILABLE, Msg.busy, 503, null, { 'retry-after': '2' }),
    }),
  };
  const app = Fastify({
    // No query value in any log line: the spec puts phones, citizen ids and `pwd` (family-card unbind) there.
    logger: redactingLogger(opts.logger),
    bodyLimit: opts.config.bodyLimit,
    trustProxy: trustProxyOption(opts.config.trustProxy),
    return503OnClosing: false,
    routerOptions: { maxParamLength: 200 },
    ...connectionOptions(opts.config.connections),
    // Errors Fastify raises before routing (a malformed URL encoding) still answer in the envelope.
    frameworkErrors: (_err, _req, reply) => {
      void (reply as unknown as FastifyReply).status(400).send({ code: Code.BAD_REQUEST, msg: '请求地址不正确', data: null });
    },
    clientErrorHandler: answerClientError,
  });

  limitConnections(app.server, opts.config.connections);
  guardPendingConnections(app, opts.config.connections);

  registerDrain(app);
  const indexFile = path.join(opts.config.staticDir, 'index.html');
  const indexHtml = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null;
  const policy = consolePolicy(indexHtml, opts.config.mapTileUrl);
  await registerSecurityHeaders(app, policy);

  app.decorateRequest('actor', null);
  registerEnvelope(app, { onForbidden: (req, err) => auditDenied(deps, req, err.message) });
  await app.register(formbody, { bodyLimit: opts.config.bodyLimit });

  const loginLimiter = await registerLoginLimits(app, opts.config.login);
  const binder = createBinder(app, deps, { checkResponses: opts.checkResponses ?? true });
  bindModules(binder, deps, { loginLimiter });

  if (indexHtml !== null) {
    await app.register(fastifyStatic, {
      root: opts.config.staticDir,
      wildcard: false,
      index: false,
      // The build wrote .br and .gz beside each asset: sent as the browser accepts, never compressed per request.
      preCompressed: true,
      setHeaders: (res, file) => {
        // Vite names built assets by content hash, so they never change under the same name.
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const qr = qrCodeCache(deps);
  // A save of the settings on this instance is seen by the next page at once.
  app.addHook('onResponse', async (req) => {
    if (req.method === system.configSave.method && req.routeOptions.url === system.configSave.path) qr.forget();
  });
  registerNotFound(app, { indexHtml, pagePolicy: () => pagePolicy(app, qr, policy) });
  logger = app.log;
  // Tests that drive the queue by hand reach it here.
  app.decorate('exportsRuntime', exports);
  app.addHook('onReady', () => exports.start());
  app.addHook('onReady', () => changes.start());
  app.addHook('preClose', (done) => {
    exports.hub.closeAll();
    done();
  });
  app.addHook('onClose', () => exports.close());
  app.addHook('onClose', () => changes.stop());
  if (opts.jobs !== false) startJobs(app, deps);
  return app;
}

/** Where this instance hears committed changes: PostgreSQL's LISTEN (all instances), or its own PGlite. */
function changeTransport(database: BuildOptions['database']): ChangeTransport | null {
  const channel = database?.channel?.(CHANGE_CHANNEL);
  if (channel) return channel;
  const here = database?.listenHere;
  if (!here) return null;
  return {
    async listen(onMessage) {
      const stop = await here(CHANGE_CHANNEL, onMessage);
      // Closing PGlite ends its listeners with it.
      return () => stop().catch(() => undefined);
    },
  };
}

/**
 * The modules' timed jobs, from the moment the server listens until it closes. A failed run is
 * logged and tried again next time; runs of one job never overlap within an instance.
 */
function startJobs(app: FastifyInstance, deps: AppDeps) {
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    // The export queue is looked at every few seconds too: tasks of an instance that died, expiries.
    const exportJob = { name: 'exports', everyMs: 5_000, atStart: true, run: () => deps.exports.tick() };
    for (const job of [...SERVER_MODULES.flatMap((m) => m.jobs ?? []), exportJob]) {
      let running = false;
      const tick = () => {
        if (running) return;
        running = true;
        job
          .run(deps)
          .catch((err: unknown) => app.log.error({ err, job: job.name }, 'job failed'))
          .finally(() => (running = false));
      };
      if (job.atStart) tick();
      const timer = setInterval(tick, deps.config.jobIntervalMs ?? job.everyMs);
      timer.unref();
      timers.push(timer);
    }
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
  });
}
