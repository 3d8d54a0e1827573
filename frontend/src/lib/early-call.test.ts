import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { access, contract } from '@shared/api/contract';
import { FARMER_DASHBOARD_LAST, USER_ONE_GET_BY_TOKEN } from '@shared/api/actions/start-up';
import { farmerActivityContracts } from '@shared/api/actions/farmer-activity';
import { userContracts } from '@shared/api/actions/user';
import { createApiClient } from './api-client';
import { EARLY_TTL_MS, earlyCallsStarting, startEarly, takeEarly } from './early-call';

/** An action whose answer must be `{ n: number }`, addressed as start-up addresses it. */
const ADDRESS = { path: '/api/farmer/activity', type: 'PROBE' } as const;
const PROBE = contract({ ...ADDRESS, input: z.object({ type: z.literal('PROBE'), farm: z.string() }), answer: z.object({ n: z.number() }), access: access.self });

/** A client whose server answers each request with the next body of `answers` (the last repeats). */
const clientAnswering = (...answers: unknown[]) => {
  let k = 0;
  const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(new Response(JSON.stringify(answers[Math.min(k++, answers.length - 1)]), { status: 200 })));
  const client = createApiClient({ apiUrl: 'https://api.example.test', getAccessToken: () => Promise.resolve('t'), fetch: fetchFn });
  const onError = vi.fn();
  client.on('error', onError);
  return { client, fetch: fetchFn, onError };
};

describe('early calls', () => {
  it('the start-up addresses are the contracts\' own (path and type written once)', () => {
    expect(USER_ONE_GET_BY_TOKEN).toEqual({ path: userContracts.USER_ONE_GET_BY_TOKEN.path, type: userContracts.USER_ONE_GET_BY_TOKEN.type });
    expect(FARMER_DASHBOARD_LAST).toEqual({ path: farmerActivityContracts.FARMER_DASHBOARD_LAST.path, type: farmerActivityContracts.FARMER_DASHBOARD_LAST.type });
  });

  it('hands the early answer, checked against the contract, to the first taker of the same action and fields only; later takers call themselves', async () => {
    const { client, fetch } = clientAnswering({ n: 1 }, { n: 2 });
    startEarly(client, ADDRESS, { farm: 'f1' });
    expect(await takeEarly(client, PROBE, { farm: 'f1' })).toEqual({ n: 1 });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await takeEarly(client, PROBE, { farm: 'f1' })).toEqual({ n: 2 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('calls again when the early answer failed or does not pass the contract, so the failure reaches the taker as its own', async () => {
    const { client, fetch, onError } = clientAnswering({ n: 'not a number' });
    startEarly(client, ADDRESS, { farm: 'f2' });
    await expect(takeEarly(client, PROBE, { farm: 'f2' })).rejects.toMatchObject({ kind: 'invalid-response' });
    expect(fetch).toHaveBeenCalledTimes(2);
    // The early call said nothing; the taker's own call announced its failure once.
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('does not use an answer older than the query cache would keep fresh, nor one for other fields', async () => {
    let now = 1_000;
    const { client, fetch } = clientAnswering({ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 });
    startEarly(client, ADDRESS, { farm: 'f3' }, () => now);
    now += EARLY_TTL_MS + 1;
    expect(await takeEarly(client, PROBE, { farm: 'f3' }, {}, () => now)).toEqual({ n: 2 });
    startEarly(client, ADDRESS, { farm: 'f4' });
    expect(await takeEarly(client, PROBE, { farm: 'f5' })).toEqual({ n: 4 });
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('waits for early calls whose code is still loading instead of calling twice', async () => {
    const { client, fetch } = clientAnswering({ n: 7 });
    let start!: () => void;
    earlyCallsStarting(
      new Promise<void>((resolve) => {
        start = () => {
          startEarly(client, ADDRESS, { farm: 'f6' });
          resolve();
        };
      }),
    );
    const taken = takeEarly(client, PROBE, { farm: 'f6' });
    start();
    expect(await taken).toEqual({ n: 7 });
    expect(fetch).toHaveBeenCalledTimes(1);
    // A start-up whose early calls never came (their code failed to load) lets takers call.
    earlyCallsStarting(Promise.reject(new Error('chunk failed')));
    expect(await takeEarly(client, PROBE, { farm: 'f7' })).toEqual({ n: 7 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
