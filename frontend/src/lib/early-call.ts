import type { QueryKey } from '@tanstack/react-query';

/**
 * API calls started at start-up for the screen that is about to show (issue 14): the answers
 * travel while the screen's code downloads, instead of after it has rendered. The screen's query
 * function takes the call (once, by its query key) instead of calling again. An early call
 * announces nothing; if it fails, the taker calls again itself, so errors, 401s and 403s reach the
 * screen exactly as without it. An early answer older than EARLY_TTL_MS is not used (the query
 * cache's staleTime: nothing older would be shown without a fetch).
 */
export const EARLY_TTL_MS = 30_000;

interface Early {
  readonly answer: Promise<unknown>;
  readonly at: number;
}
const started = new Map<string, Early>();
const keyOf = (queryKey: QueryKey): string => JSON.stringify(queryKey);

/** What an early call passes the client: no notice of its failure, a 401's included (the taker's own call gives it). */
export const QUIET = { announce: false } as const;

/** Starts `call` now for the query `queryKey`; the returned answer is for chaining further early calls. */
export const startEarly = <T,>(queryKey: QueryKey, call: () => Promise<T>, now: () => number = Date.now): Promise<T> => {
  const answer = call();
  answer.catch(() => undefined);
  started.set(keyOf(queryKey), { answer, at: now() });
  return answer;
};

let starting: Promise<unknown> = Promise.resolve();

/**
 * Early calls whose code is still loading: until `ready` settles, takers wait for them rather
 * than call a second time (the screen's code and the early calls' load side by side).
 */
export const earlyCallsStarting = (ready: Promise<unknown>): void => {
  starting = ready.catch(() => undefined);
};

/** The early answer for `queryKey` (taken once, if fresh), else `call()`; an early failure calls again. */
export const takeEarly = async <T,>(queryKey: QueryKey, call: () => Promise<T>, now: () => number = Date.now): Promise<T> => {
  await starting;
  const key = keyOf(queryKey);
  const early = started.get(key);
  started.delete(key);
  if (!early || now() - early.at > EARLY_TTL_MS) return call();
  return (early.answer as Promise<T>).catch(() => call());
};
