import type { ActionAddress, Contract, ContractAnswer, ContractFields } from '@shared/api/contract';
import { checkAnswer, type ApiClient, type ApiFields, type CallOptions } from './api-client';

/**
 * API calls started at start-up for the screen that is about to show: the answers
 * travel while the screen's code downloads, instead of after it has rendered. An early call goes
 * out by the action's address (shared/api/actions/start-up.ts), before the contracts' zod schemas
 * have loaded; the screen's query function takes it (once, for the same action and fields) instead
 * of calling again, and checks the answer against the contract as its own call would. An early
 * call announces nothing; if it failed, or its answer does not pass the contract, the taker calls
 * again itself, so errors, 401s and 403s reach the screen exactly as without it. An early answer
 * older than EARLY_TTL_MS is not used (the query cache's staleTime: nothing older would be shown
 * without a fetch).
 */
export const EARLY_TTL_MS = 30_000;

interface Early {
  readonly answer: Promise<unknown>;
  readonly at: number;
}
const started = new Map<string, Early>();

/** The request itself: the action and its fields (unset ones left out, as the client leaves them out). */
const keyOf = (address: ActionAddress, fields: ApiFields): string =>
  JSON.stringify([address.path, address.type, Object.entries(fields).filter(([, v]) => v !== undefined && v !== null).sort(([a], [b]) => a.localeCompare(b))]);

/** Sends `address` with `fields` now, quietly (no notice of its failure, a 401's included: the taker's own call gives it); the unchecked answer. */
export const startEarly = (client: ApiClient, address: ActionAddress, fields: ApiFields, now: () => number = Date.now): Promise<unknown> => {
  const answer = client.send(address, fields, { announce: false });
  answer.catch(() => undefined);
  started.set(keyOf(address, fields), { answer, at: now() });
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

/**
 * `client.call(contract, fields, options)`, or the early answer to the same action and fields (taken
 * once, if fresh), checked against the contract; when that failed, the call is made after all.
 */
export const takeEarly = async <C extends Contract>(
  client: ApiClient,
  contract: C,
  fields: ContractFields<C>,
  options: CallOptions = {},
  now: () => number = Date.now,
): Promise<ContractAnswer<C>> => {
  const call = () => client.call(contract, fields, options);
  await starting;
  const key = keyOf(contract, fields as ApiFields);
  const early = started.get(key);
  started.delete(key);
  if (!early || now() - early.at > EARLY_TTL_MS) return call();
  return early.answer.then((body) => checkAnswer(contract, body)).catch(call);
};
