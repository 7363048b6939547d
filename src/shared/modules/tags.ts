import type { Endpoint } from '../api/endpoint';
import { CONTRACT_MODULES } from './contract';

// Built on first use: this file is re-exported by the contract, which it reads.
let owners: Map<string, string> | undefined;
const ownerOf = (id: string) => (owners ??= new Map(CONTRACT_MODULES.flatMap((m) => m.endpoints.map((e): [string, string] => [e.id, m.id])))).get(id) ?? id;

/** What a read shows: its own tags, else its module's. */
export const readTags = (e: Pick<Endpoint, 'id' | 'reads'>): readonly string[] => e.reads ?? [ownerOf(e.id)];

/** What a change alters: its own tags, else its module's. */
export const writeTags = (e: Pick<Endpoint, 'id' | 'writes'>): readonly string[] => e.writes ?? [ownerOf(e.id)];

/** The reads a change makes stale, by id. */
export const staleAfter = (change: Pick<Endpoint, 'id' | 'writes'>, reads: readonly Pick<Endpoint, 'id' | 'reads'>[]): string[] => {
  const written = new Set(writeTags(change));
  return reads.filter((r) => readTags(r).some((t) => written.has(t))).map((r) => r.id);
};
