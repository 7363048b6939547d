import { exportTask } from '../../../shared/api';
import type { TaskEvent } from '../../../shared/api';
import * as t from '../../db/schema';
import { recentTasks, cancelTask, deleteTask, listTasks, openDownload } from '../../lib/export-tasks/store';
import { attachmentHeader } from '../../lib/xlsx';
import { sessionAlive } from '../../plugins/auth';
import type { ServerModule } from '../module';

/** 下载中心: an account's export tasks, their files and their live progress. */
export const downloadServer: ServerModule = {
  id: 'download',
  tables: [t.exportTasks, t.exportFileChunks],
  routes(b, deps) {
    b.bind(exportTask.taskList, ({ auth, query }) => listTasks(deps, auth, query));
    b.bind(exportTask.taskCancel, async ({ auth, params }) => {
      const task = await cancelTask(deps, auth, params.id);
      deps.exports.hub.publish(auth.user.id, { type: 'task', task });
      return task;
    });
    b.bind(exportTask.taskDelete, async ({ auth, params }) => {
      await deleteTask(deps, auth, params.id);
      deps.exports.hub.publish(auth.user.id, { type: 'removed', id: params.id });
      return null;
    });
    b.bind(exportTask.taskDownload, async ({ auth, params, reply }) => {
      const file = await openDownload(deps, auth, params.id, deps.exports.kinds);
      reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').header('content-disposition', attachmentHeader(file.fileName)).header('cache-control', 'no-store');
      if (file.size !== null) reply.header('content-length', file.size);
      return reply.send(file.stream);
    });
    b.bind(exportTask.taskEvents, async ({ auth, req, reply }) => {
      // Subscribed before the list is read: a change made meanwhile is sent after it, not lost.
      const early: Parameters<Parameters<typeof deps.exports.hub.subscribe>[1]>[0][] = [];
      let deliver: ((e: (typeof early)[number]) => void) | null = null;
      const unsubscribe = deps.exports.hub.subscribe(auth.user.id, (e) => (deliver ? deliver(e) : early.push(e)));
      let tasks;
      try {
        tasks = await recentTasks(deps.db, auth.user.id);
      } catch (err) {
        unsubscribe();
        throw err;
      }
      // From here the answer is a stream the hooks never see: its headers are set here, all of them.
      // A shutdown does not wait for it (the hub's `closing` ends it).
      req.longLived = true;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        // A reverse proxy must pass each event on at once, not buffer the stream.
        'x-accel-buffering': 'no',
      });
      const send = (event: TaskEvent) => res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.write('retry: 3000\n\n');
      send({ type: 'tasks', tasks });
      let open = true;
      const end = () => {
        if (!open) return;
        open = false;
        clearInterval(ping);
        unsubscribe();
        res.end();
      };
      deliver = (e) => {
        if (e.type === 'closing') return end();
        if (e.type !== 'resync') return void send(e);
        recentTasks(deps.db, auth.user.id).then((list) => open && send({ type: 'tasks', tasks: list }), () => undefined);
      };
      // A stream outlives no session: logged out, replaced or idle, it ends (and the console's next
      // call meets the 401). Checking does not count as activity, or an open tab would never go idle.
      const ping = setInterval(() => {
        res.write(': ping\n\n');
        sessionAlive(deps, auth.session.id).then((alive) => alive || end(), () => undefined);
      }, deps.config.exports.pingMs);
      ping.unref();
      req.raw.on('close', end);
      for (const e of early.splice(0)) deliver(e);
      return reply;
    });
  },
};
