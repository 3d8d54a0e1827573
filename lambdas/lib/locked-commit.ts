/**
 * One commit shell for a per-key state kept under an optimistic lock with an outbox of side
 * effects: load → (apply an outbox left by a crash) → step → conditional commit → apply the
 * outbox → keep the committed copy warm. The ingest (a device's detector state) and the alert
 * processor (a device's engine state) both run on it, with one backoff.
 *
 * - A step is a function of the state as loaded; it runs again on a fresh load when the commit
 *   loses the race (someone else committed since the load), up to MAX_ATTEMPTS times.
 * - The outbox is part of the committed record, so a crash after the commit loses nothing: the
 *   next run on the key (this container or another) applies it before stepping. Applying is
 *   idempotent; a container does not apply the same version twice.
 * - A warm container reuses what it committed; safe because every commit is conditional on the
 *   version it read.
 */

/**
 * Attempts before the run fails (and its caller is retried). Two containers on one key is rare,
 * but a backlog upload makes it likely and a retried step may be a whole replay.
 */
const MAX_ATTEMPTS = 40;

/** The wait before retry `attempt` (1-based): exponential from 10 ms, capped at 250 ms, jittered ±50 %. */
const backoff = (attempt: number): Promise<void> => new Promise((r) => setTimeout(r, Math.min(250, 5 * 2 ** attempt) * (0.5 + Math.random())));

export type Step<R, T> =
  /** Nothing to write. */
  | { readonly kind: 'none'; readonly result: T }
  /** Nothing to write yet: keep this copy in the warm cache (its version is the stored one). */
  | { readonly kind: 'keep'; readonly record: R; readonly result: T }
  /** Commit this record if nobody committed since `current` was loaded. */
  | { readonly kind: 'commit'; readonly record: R; readonly result: T };

interface LockedStore<R, F> {
  readonly name: string;
  load(key: string): Promise<R | undefined>;
  /** false: someone else committed since `previous` was loaded. */
  commit(key: string, next: R, previous: R | undefined): Promise<boolean>;
  /** The record's lock version (grows with every commit). */
  version(record: R): number;
  hasOutbox(record: R): boolean;
  /** Applies the record's outbox (idempotent). */
  flush(key: string, record: R): Promise<F>;
  /** If given, the outbox is emptied by a second conditional commit after it was applied. */
  cleared?(record: R): R;
  /** After the outbox was applied (and cleared): e.g. deliver what it raised. */
  afterFlush?(key: string, flushed: F): Promise<void>;
  /** How long a warm copy is trusted without a read (default: until a commit fails). */
  readonly cacheMs?: number;
  readonly now: () => number;
}

export const makeLockedCommit = <R, F = void>(store: LockedStore<R, F>) => {
  const cache = new Map<string, { record: R; at: number }>();
  /** The version whose outbox this container applied, per key. */
  const flushed = new Map<string, number>();
  const fresh = (at: number) => store.cacheMs === undefined || store.now() - at < store.cacheMs;

  /** The warm copy, or a read (kept warm). */
  const peek = async (key: string): Promise<{ record: R | undefined; cached: boolean }> => {
    const hit = cache.get(key);
    if (hit && fresh(hit.at)) return { record: hit.record, cached: true };
    const record = await store.load(key);
    if (record === undefined) cache.delete(key);
    else cache.set(key, { record, at: store.now() });
    return { record, cached: false };
  };

  const remember = (key: string, record: R) => cache.set(key, { record, at: cache.get(key)?.at ?? store.now() });

  /** Applies a committed record's outbox (once per version in this container); the record to step on. */
  const settle = async (key: string, record: R): Promise<R> => {
    const out = await store.flush(key, record);
    flushed.set(key, store.version(record));
    let current = record;
    if (store.cleared) {
      const empty = store.cleared(record);
      if (await store.commit(key, empty, record)) {
        remember(key, empty);
        current = empty;
      } else cache.delete(key);
    }
    await store.afterFlush?.(key, out);
    return current;
  };

  const run = async <T>(key: string, step: (current: R | undefined, ctx: { readonly cached: boolean }) => Promise<Step<R, T>> | Step<R, T>): Promise<T> => {
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        if (attempt > 0) {
          cache.delete(key);
          await backoff(attempt);
        }
        const loaded = await peek(key);
        let current = loaded.record;
        if (current !== undefined && store.hasOutbox(current) && flushed.get(key) !== store.version(current)) current = await settle(key, current);
        const next = await step(current, { cached: loaded.cached });
        if (next.kind === 'none') return next.result;
        if (next.kind === 'keep') {
          remember(key, next.record);
          return next.result;
        }
        if (!(await store.commit(key, next.record, current))) continue;
        remember(key, next.record);
        if (store.hasOutbox(next.record)) await settle(key, next.record);
        return next.result;
      }
    } catch (err) {
      // The stored record may or may not be what this container last saw: read it next time.
      cache.delete(key);
      throw err;
    }
    cache.delete(key);
    throw new Error(`${store.name} of ${key}: still contended after ${MAX_ATTEMPTS} attempts`);
  };

  return { run, peek, forget: (key: string) => cache.delete(key) };
};
