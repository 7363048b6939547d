import { parentPort, workerData } from 'node:worker_threads';
import { runAhead } from './db/seed/ahead';
import { SEED_PLANS } from './seed-plans';

// The seed's worker thread (db/seed/ahead.ts): bundled beside the server as seed-worker.mjs.
runAhead(SEED_PLANS, workerData, (m, transfer) => parentPort?.postMessage(m, transfer));
