import { Code, Msg, exportTask } from '../../../shared/api';
import type { TaskEvent } from '../../../shared/api';
import * as t from '../../db/schema';
import { recentTasks, cancelTask, deleteTask, listTasks, openDownload } from '../../lib/export-tasks/store';
import { CONSOLE_HEADER, type ChangeEvent, consoleIdOf, readableTags } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import { attachmentHeader } from '../../lib/xlsx';
import { accessStamp, sessionAlive } from '../../plugins/auth';
import type { ServerModule } from '../module';

/** A console refused a stream because the instance holds all it may tries again after this long. */
const STREAMS_FULL_RETRY_S = 30;

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
      // Counted from the start, before the list is read: a thousand opened at once by one token are
      // a thousand admissions, each replacing the oldest, not a thousand that all pass the count.
      const slot = deps.exports.streams.admit(auth.user.id, auth.session.id);
      if (!slot) throw new AppError(Code.UNAVAILABLE, Msg.busy, 503, null, { 'retry-after': String(STREAMS_FULL_RETRY_S) });
      const res = reply.raw;
      // The client may leave at any point, also while the list is being read.
      res.once('close', () => slot.release());
      // Subscribed before the list is read: a change made meanwhile is sent after it, not lost.
      const early: (Parameters<Parameters<typeof deps.exports.hub.subscribe>[1]>[0] | ChangeEvent)[] = [];
      let deliver: ((e: (typeof early)[number]) => void) | null = null;
      const unsubscribeTasks = deps.exports.hub.subscribe(auth.user.id, (e) => (deliver ? deliver(e) : early.push(e)));
      // Changes of records (the live console): an account bound to its district hears of that district's only.
      const unsubscribeChanges = deps.changes.subscribe({
        userId: auth.user.id,
        districtId: auth.user.openDistrict ? null : auth.user.districtId,
        readable: readableTags(auth),
        consoleId: consoleIdOf(req.headers[CONSOLE_HEADER]),
        send: (e) => (deliver ? deliver(e) : early.push(e)),
      });
      const unsubscribe = () => {
        unsubscribeTasks();
        unsubscribeChanges();
      };
      let tasks;
      let access: string;
      try {
        tasks = await recentTasks(deps.db, auth.user.id);
        access = await accessStamp(deps, auth.user.id);
      } catch (err) {
        unsubscribe();
        slot.release();
        throw err;
      }
      if (res.destroyed) {
        // Gone while the list was read: nothing to stream to.
        unsubscribe();
        reply.hijack();
        return reply;
      }
      // From here the answer is a stream the hooks never see: its headers are set here, all of them.
      // A shutdown does not wait for it (the hub's `closing` ends it).
      req.longLived = true;
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        // A reverse proxy must pass each event on at once, not buffer the stream.
        'x-accel-buffering': 'no',
      });
      const send = (event: TaskEvent) => res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.write('retry: 3000\n\n');
      let open = true;
      const end = (why?: TaskEvent) => {
        if (!open) return;
        open = false;
        clearInterval(ping);
        unsubscribe();
        slot.release();
        // The last word says why, so the console does not reconnect into a tab that replaced it.
        if (why) send(why);
        res.end();
      };
      deliver = (e) => {
        if (e.type === 'closing') return end();
        if (e.type === 'change') return void send(e);
        if (e.type !== 'resync') return void send(e);
        // Changes may have been missed: the console refetches what it shows, and the task list comes again.
        send({ type: 'resync' });
        recentTasks(deps.db, auth.user.id).then((list) => open && send({ type: 'tasks', tasks: list }), () => undefined);
      };
      // A stream outlives no session: logged out, replaced or idle, it ends (and the console's next
      // call meets the 401). Checking does not count as activity, or an open tab would never go idle.
      const ping = setInterval(() => {
        res.write(': ping\n\n');
        sessionAlive(deps, auth.session.id).then((alive) => alive || end(), () => undefined);
        // The district and menus the changes are filtered by were read at the start: another
        // district or role group since ends the stream, and the console reconnects as it is now.
        accessStamp(deps, auth.user.id).then((now) => now === access || end(), () => undefined);
      }, deps.config.exports.pingMs);
      ping.unref();
      res.once('close', () => end());
      // Replaced while the list was read: the stream says so at once and ends.
      slot.onReplaced(() => end({ type: 'closed', reason: 'replaced' }));
      if (!open) return reply;
      send({ type: 'tasks', tasks });
      for (const e of early.splice(0)) deliver(e);
      return reply;
    });
  },
};
