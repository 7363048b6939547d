import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { openAndPrepare } from './boot';
import { loadConfig, systemClock } from './config';
import { buildConsoleIfChanged } from './console-build';
import { DEMO_PASSWORD } from './db/seed';

const started = performance.now();
const config = loadConfig();
const log = (msg: string, err?: unknown) => console.error(`[server] ${msg}`, err instanceof Error ? err.message : (err ?? ''));

// `npm start` passes --build: the console is built (when its sources changed) while the database
// opens, migrates and seeds, and the server listens once both are done.
// The launcher (launch.mjs) runs this file from a bundle elsewhere and names the checkout.
const root = process.env.APP_ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
const building = process.argv.includes('--build') ? buildConsoleIfChanged(root, config.staticDir) : Promise.resolve(false);
building.catch(() => undefined);
const { database, seededDemo, pii } = await openAndPrepare(config, systemClock, log);
try {
  await building;
} catch (err) {
  log('console build failed', err);
  await database.close();
  process.exit(1);
}
const app = await buildApp({
  pii,
  db: database.db,
  database,
  config,
  logger: { level: process.env.LOG_LEVEL || 'warn' },
  checkResponses: process.env.NODE_ENV !== 'production',
});
const address = await app.listen({ host: config.host, port: config.port });
const port = new URL(address).port;
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const readyMs = Math.round(performance.now() - started);

const lines = [
  '',
  `公交运营管理控制台已启动 (${readyMs} ms)`,
  `  地址:     http://${shownHost}:${port}/`,
  `  数据库:   ${database.kind === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL'}${seededDemo ? '（已生成演示城市：上海市）' : ''}`,
];
if (config.seedDemo) {
  lines.push(
    `  演示账号 (密码均为 ${DEMO_PASSWORD}):`,
    '    admin    超级管理员，可切换区域',
    '    manager  徐汇区管理员',
    '    agent    客服坐席（查询、亲情卡、乘客；无退款权限）',
    '    viewer   只读',
    '    expired  密码已过期的用户',
  );
}
console.log(lines.join('\n'));
console.log(`READY ${address}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[server] ${signal}: draining connections`);
  const force = setTimeout(() => {
    console.error('[server] drain timed out, exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  try {
    await app.drain({ graceMs: config.shutdownGraceMs, maxMs: 8_000 });
    await app.close();
    await database.close();
    process.exit(0);
  } catch (err) {
    log('shutdown failed', err);
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
