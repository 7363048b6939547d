import { useSyncExternalStore } from 'react';

/**
 * A value outside React that components follow (the session-ended notice, settings, tags, toasts):
 * one small store instead of hand-written listener sets each time.
 */
export interface Store<T> {
  get(): T;
  set(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = typeof next === 'function' ? (next as (prev: T) => T)(value) : next;
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Follows a store: the component renders again whenever its value changes. */
export const useStore = <T,>(store: Store<T>): T => useSyncExternalStore(store.subscribe, store.get);
