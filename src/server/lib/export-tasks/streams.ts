export interface StreamLimits {
  perSession: number;
  perAccount: number;
  /** All accounts together on this instance; 0 = no cap. */
  max: number;
}

/** A stream's place among those this instance holds. */
export interface StreamSlot {
  /** A newer stream of the same session or account took this one's place. */
  readonly replaced: boolean;
  /** Called once when replaced (at once if it already was). */
  onReplaced(fn: () => void): void;
  /** The stream ended; its place is free. Idempotent. */
  release(): void;
}

class Slot implements StreamSlot {
  replaced = false;
  private listener: (() => void) | null = null;
  constructor(
    readonly userId: number,
    readonly sessionId: string,
    readonly free: (s: Slot) => void,
  ) {}
  onReplaced(fn: () => void): void {
    if (this.replaced) fn();
    else this.listener = fn;
  }
  replace(): void {
    this.free(this);
    this.replaced = true;
    this.listener?.();
    this.listener = null;
  }
  release(): void {
    this.free(this);
  }
}

/**
 * The event streams this instance holds, counted per session, per account and in all. A stream
 * holds its connection for as long as its session lives, so without these counts one token could
 * open streams until no connection was left for anybody. A session's or account's newest stream
 * replaces its oldest (the tab opened last is the one looked at); a new stream beyond the
 * instance's cap is refused instead, since replacing someone else's would let many accounts churn
 * everyone's. Sets keep insertion order, so the first of each is the oldest.
 */
export class StreamRegistry {
  private readonly bySession = new Map<string, Set<Slot>>();
  private readonly byAccount = new Map<number, Set<Slot>>();
  private total = 0;

  constructor(private readonly limits: StreamLimits) {}

  get size(): number {
    return this.total;
  }

  /** A place for a new stream of this session, or null when the instance holds all it may. */
  admit(userId: number, sessionId: string): StreamSlot | null {
    const victims = new Set<Slot>();
    const session = [...(this.bySession.get(sessionId) ?? [])];
    for (const s of session.slice(0, Math.max(0, session.length + 1 - this.limits.perSession))) victims.add(s);
    const account = [...(this.byAccount.get(userId) ?? [])].filter((s) => !victims.has(s));
    // `account` holds what stays once the session's own victims are gone: only those count.
    for (const s of account.slice(0, Math.max(0, account.length + 1 - this.limits.perAccount))) victims.add(s);
    if (this.limits.max > 0 && this.total - victims.size + 1 > this.limits.max) return null;
    for (const v of victims) v.replace();
    const slot = new Slot(userId, sessionId, (s) => this.free(s));
    this.add(this.bySession, sessionId, slot);
    this.add(this.byAccount, userId, slot);
    this.total++;
    return slot;
  }

  private add<K>(map: Map<K, Set<Slot>>, key: K, slot: Slot): void {
    const set = map.get(key) ?? new Set<Slot>();
    set.add(slot);
    map.set(key, set);
  }

  private free(slot: Slot): void {
    const session = this.bySession.get(slot.sessionId);
    if (!session?.delete(slot)) return;
    if (!session.size) this.bySession.delete(slot.sessionId);
    const account = this.byAccount.get(slot.userId);
    account?.delete(slot);
    if (account && !account.size) this.byAccount.delete(slot.userId);
    this.total--;
  }
}
