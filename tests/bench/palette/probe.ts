/**
 * Keystroke → paint, measured inside the page (so the CDP round trips of the driver never count).
 *
 * Start: the `timeStamp` of the first keydown / beforeinput / input seen after `arm()` (capture phase
 * on window, so no handler runs before it). A Latin key arrives as keydown → keypress → beforeinput
 * → input; a Chinese character typed by `page.keyboard.type` arrives through `Input.insertText`
 * (beforeinput → input, no keydown), as an IME commit would. `timeStamp` is when the browser took
 * the event, so time spent queued behind a long task counts.
 *
 * End: the paint that shows the keystroke's final DOM. "A paint" is approximated the usual way:
 * requestAnimationFrame runs in the frame's rendering steps, before style, layout and paint; a
 * MessageChannel message posted from there runs as the next task, i.e. after that frame's main-thread
 * rendering work. Two such probes are taken:
 * - `nextPaint`: one probe started by the event itself, the INP-style "next paint after the input";
 * - `latency` (reported): React and cmdk chain work through effects and scheduler tasks (the
 *   palette's setRemote/setSelected effects, cmdk's scheduled selection), which can land after that
 *   first frame. A MutationObserver on the document (rows, text, aria-selected; not the `style`
 *   cmdk's ResizeObserver rewrites a frame later) starts a new probe after every mutation batch, and
 *   restarts it when more mutations arrive between the frame and the message. `latency` runs to
 *   the last such paint, or to `nextPaint` when nothing changed later.
 * `settle()` resolves once nothing has mutated and no probe is pending for QUIET_MS.
 *
 * Even a keystroke that does no work waits for the next frame (0–16.7 ms at 60 Hz), so p95 of
 * keystroke → paint sits near one frame at best: read the figures against the bench's floor variant.
 *
 * Cross-check: the Event Timing API (durationThreshold 16, Chromium's floor) reports, for events
 * that took ≥ 16 ms, the time from the event to the next paint after its handlers, in 8 ms steps;
 * `eventTiming` is the largest such duration for the keystroke's events, 0 when none reached 16 ms.
 */

export interface Sample {
  /** Start (event timeStamp or `armNow` time) → paint of the last DOM change, ms. */
  latency: number;
  /** Start → the first paint after the event, ms. */
  nextPaint: number;
  /** Largest Event Timing duration among this keystroke's events (0: all under 16 ms). */
  eventTiming: number;
  /** DOM mutation records seen for the keystroke. */
  mutations: number;
  timedOut: boolean;
}

const QUIET_MS = 120;
const SETTLE_LIMIT_MS = 30_000;

function afterPaint(cb: (t: number) => void) {
  requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      cb(performance.now());
    };
    ch.port2.postMessage(null);
  });
}

export function createProbe() {
  let armed = false;
  let t0: number | null = null;
  let firstPaint: number | null = null;
  let lastPaint: number | null = null;
  let mutationSeq = 0;
  let mutations = 0;
  let probePending = false;
  let lastActivity = 0;
  const events: PerformanceEventTiming[] = [];

  const start = (t: number) => {
    t0 = t;
    lastActivity = performance.now();
    afterPaint((now) => {
      firstPaint = now;
      lastActivity = now;
    });
  };

  const onInput = (e: Event) => {
    if (armed && t0 === null) start(e.timeStamp);
  };
  for (const type of ['keydown', 'beforeinput', 'input']) window.addEventListener(type, onInput, { capture: true });

  const probe = () => {
    probePending = true;
    requestAnimationFrame(() => {
      const seqAtFrame = mutationSeq;
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        const now = performance.now();
        lastPaint = now;
        lastActivity = now;
        if (mutationSeq !== seqAtFrame) probe();
        else probePending = false;
      };
      ch.port2.postMessage(null);
    });
  };

  new MutationObserver((records) => {
    if (!armed || t0 === null) return;
    mutations += records.length;
    mutationSeq++;
    lastActivity = performance.now();
    if (!probePending) probe();
  }).observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-selected'] });

  try {
    new PerformanceObserver((list) => events.push(...(list.getEntries() as PerformanceEventTiming[]))).observe({
      type: 'event',
      durationThreshold: 16,
      buffered: false,
    } as PerformanceObserverInit);
  } catch {
    // No Event Timing: the cross-check column stays 0.
  }

  return {
    /** The next keydown/beforeinput/input starts a sample. */
    arm() {
      armed = true;
      t0 = null;
      firstPaint = lastPaint = null;
      mutations = 0;
    },
    /** Starts a sample now, for work not started by an input event (opening, records arriving). */
    armNow() {
      this.arm();
      start(performance.now());
    },
    /** Resolves once quiet (and `until()` holds, for work that paints nothing for a while). */
    settle(until: () => boolean = () => true): Promise<Sample> {
      const begun = performance.now();
      return new Promise((resolve) => {
        const check = () => {
          const now = performance.now();
          const timedOut = now - begun > SETTLE_LIMIT_MS;
          if (!timedOut && (t0 === null || firstPaint === null || probePending || now - lastActivity < QUIET_MS || !until())) {
            setTimeout(check, 20);
            return;
          }
          armed = false;
          const start = t0 ?? now;
          const end = Math.max(firstPaint ?? now, lastPaint ?? 0);
          const mine = events.filter((e) => e.startTime >= start - 1 && e.startTime <= end);
          resolve({
            latency: end - start,
            nextPaint: (firstPaint ?? now) - start,
            eventTiming: mine.reduce((m, e) => Math.max(m, e.duration), 0),
            mutations,
            timedOut,
          });
        };
        check();
      });
    },
  };
}

/** Long tasks (≥ 50 ms) as the browser reports them, to see blocking work no input waited for. */
export function createLongTaskLog() {
  const tasks: { start: number; duration: number }[] = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // Not supported: empty log.
  }
  return {
    since(t: number) {
      const mine = tasks.filter((x) => x.start + x.duration >= t);
      return { count: mine.length, longest: mine.reduce((m, x) => Math.max(m, x.duration), 0), total: mine.reduce((s, x) => s + x.duration, 0) };
    },
  };
}
