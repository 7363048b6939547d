/** How a hub hears one channel: PostgreSQL's LISTEN, or PGlite's own (one instance, the same path). */
export interface ListenTransport {
  listen(onMessage: (payload: string) => void, onReconnect: () => void): Promise<() => Promise<void>>;
}

/**
 * What the change hub and the export tasks' hub share: one channel's JSON messages heard from the
 * moment `start` returns until `stop`, a malformed one logged and dropped (one bad payload must not
 * end the listening), and `lost` called when the connection came back, since whatever was sent
 * while it was down never arrives.
 */
export abstract class ListeningHub<M> {
  private stopListening: (() => Promise<void>) | null = null;

  protected constructor(
    private readonly listener: ListenTransport | null,
    protected readonly log: (msg: string, err?: unknown) => void,
    /** Named in the log line of a payload that is not JSON: `change`, `task`. */
    private readonly what: string,
  ) {}

  protected abstract heard(message: M): void;
  protected abstract lost(): void;

  async start(): Promise<void> {
    if (!this.listener) return;
    this.stopListening = await this.listener.listen(
      (payload) => {
        try {
          this.heard(JSON.parse(payload) as M);
        } catch (err) {
          this.log(`bad ${this.what} notification`, err);
        }
      },
      () => this.lost(),
    );
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = null;
  }
}
