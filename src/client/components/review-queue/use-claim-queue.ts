import { useEffect, useRef, useState } from 'react';
import type { Endpoint } from '../../../shared/api';
import { useRevalidate } from '../../lib/revalidate';
import type { QueueState } from './review-queue';

/** What a review queue opens on: the next pending (Enter), one application to review (claimed), or one to look at. */
export type QueueStart = { kind: 'next' } | { kind: 'review'; id: number } | { kind: 'view'; id: number };

/** What the queue needs of an application: whether it waits for a decision and who holds its claim. */
export interface Claimable {
  id: number;
  status: number;
  claimById: number | null;
}

export type ClaimBody = { id: number; takeOver?: true } | { skip: number[] };

/** A module's calls behind its queue (线上验卡, 线上办卡), typed there, and the claim's endpoints for revalidation. */
export interface ClaimCalls<D extends Claimable> {
  claim(body: ClaimBody): Promise<D | null>;
  msg(id: number): Promise<D>;
  release(id: number): Promise<unknown>;
  endpoints: { claim: Pick<Endpoint, 'id' | 'writes'>; release: Pick<Endpoint, 'id' | 'writes'> };
  /** The status of an application waiting for a decision (验卡 0, 办卡 1). */
  pending: number;
  /** How many skipped ids the claim call takes. */
  skipMax: number;
}

/**
 * The claim cycle shared by the review queues (server side: lib/review-claim.ts): take the next
 * pending one nobody else holds (skipping those passed over), or one by id (a take-over when asked);
 * a refused claim shows the application as it is, not decidable; skipping and leaving give back the
 * claim held. The module keeps its own decision call and what the item shows.
 */
export function useClaimQueue<D extends Claimable>(start: QueueStart, me: number | undefined, calls: ClaimCalls<D>) {
  const revalidate = useRevalidate();
  const [state, setState] = useState<QueueState>(start.kind === 'next' ? 'idle' : 'loading');
  const [detail, setDetail] = useState<D | null>(null);
  const skipped = useRef<number[]>([]);
  const [lastDecision, setLastDecision] = useState<string | null>(null);

  const show = (d: D | null) => {
    setDetail(d);
    setState(d ? 'ready' : 'empty');
  };
  const view = async (id: number) => {
    setState('loading');
    try {
      show(await calls.msg(id));
    } catch {
      setState('idle');
    }
  };
  const take = async (id?: number, takeOver = false) => {
    setState('loading');
    const body: ClaimBody = id ? { id, ...(takeOver ? { takeOver: true as const } : {}) } : { skip: skipped.current.slice(-calls.skipMax) };
    try {
      show(await calls.claim(body));
    } catch {
      // Refused (held by another, decided): shown as it is, not decidable here.
      if (id) return view(id);
      setState(detail ? 'ready' : 'idle');
    }
    void revalidate(calls.endpoints.claim);
  };
  const release = () => {
    const d = detail;
    if (d && d.status === calls.pending && d.claimById === me) void calls.release(d.id).catch(() => undefined);
  };
  useEffect(() => {
    if (start.kind === 'review') void take(start.id);
    else if (start.kind === 'view') void view(start.id);
    // Once, on opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return {
    state,
    detail,
    take,
    lastDecision,
    /** A decision made: said in the queue (and the toast), then the next is taken. */
    async decided(text: string) {
      setLastDecision(text);
      await take();
    },
    /** Mine to decide: pending and claimed by me. */
    mine: (d: D) => d.status === calls.pending && d.claimById !== null && d.claimById === me,
    /** Held by someone else: a take-over is offered to those allowed it. */
    heldByOther: (d: D) => d.status === calls.pending && d.claimById !== null && d.claimById !== me,
    skip() {
      if (detail) skipped.current.push(detail.id);
      release();
      void take();
    },
    close() {
      release();
      void revalidate(calls.endpoints.release);
    },
  };
}
