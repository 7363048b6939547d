import { ListeningHub, type ListenTransport } from '../listening-hub';
import type { TaskEvent } from '../../../shared/api';

/** Besides task events: `resync` (notifications may have been lost) and `closing` (the server stops). */
type Listener = (event: TaskEvent | { type: 'resync' } | { type: 'closing' }) => void;

/** How the hub reaches the other instances: PostgreSQL's NOTIFY / LISTEN (absent on PGlite: one instance). */
export interface HubTransport extends ListenTransport {
  notify(payload: string): Promise<void>;
}

export const TASK_CHANNEL = 'export_tasks';

/**
 * Task changes to the consoles of their owner: whichever instance runs a task, the instance that
 * holds the owner's event stream hears of it (NOTIFY carries the task; 8000 bytes is plenty).
 */
export class TaskHub extends ListeningHub<{ from: string; userId: number; event: TaskEvent }> {
  private readonly listeners = new Map<number, Set<Listener>>();

  constructor(
    private readonly instanceId: string,
    private readonly transport: HubTransport | null,
    log: (msg: string, err?: unknown) => void,
  ) {
    super(transport, log, 'task');
  }

  protected heard(m: { from: string; userId: number; event: TaskEvent }): void {
    if (m.from !== this.instanceId) this.deliver(m.userId, m.event);
  }

  // Notifications sent while the connection was down are lost: every stream sends its list again.
  protected lost(): void {
    for (const set of this.listeners.values()) for (const l of set) l({ type: 'resync' });
  }

  /** Ends every event stream: the server is closing and would otherwise wait for them. */
  closeAll(): void {
    for (const set of [...this.listeners.values()]) for (const l of [...set]) l({ type: 'closing' });
  }

  subscribe(userId: number, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(userId);
    };
  }

  /** Tells the owner's consoles, here and on the other instances; never throws (the change is committed). */
  publish(userId: number, event: TaskEvent): void {
    this.deliver(userId, event);
    this.transport?.notify(JSON.stringify({ from: this.instanceId, userId, event })).catch((err: unknown) => this.log('task notify failed', err));
  }

  private deliver(userId: number, event: TaskEvent): void {
    for (const l of this.listeners.get(userId) ?? []) l(event);
  }
}
