import { describe, expect, it, vi } from 'vitest';
import { EARLY_TTL_MS, earlyCallsStarting, startEarly, takeEarly } from './early-call';

describe('early calls (issue 14)', () => {
  it('hands the early answer to the first taker only; later takers call themselves', async () => {
    const early = vi.fn(() => Promise.resolve('early'));
    const own = vi.fn(() => Promise.resolve('own'));
    startEarly(['a'], early);
    expect(await takeEarly(['a'], own)).toBe('early');
    expect(own).not.toHaveBeenCalled();
    expect(await takeEarly(['a'], own)).toBe('own');
    expect(early).toHaveBeenCalledTimes(1);
  });

  it('calls again when the early call failed, so the failure reaches the taker as its own', async () => {
    startEarly(['b'], () => Promise.reject(new Error('early failure')));
    const own = vi.fn(() => Promise.reject(new Error('own failure')));
    await expect(takeEarly(['b'], own)).rejects.toThrow('own failure');
    expect(own).toHaveBeenCalledTimes(1);
  });

  it('does not use an answer older than the query cache would keep fresh, nor another key', async () => {
    let now = 1_000;
    startEarly(['c'], () => Promise.resolve('old'), () => now);
    now += EARLY_TTL_MS + 1;
    expect(await takeEarly(['c'], () => Promise.resolve('fresh'), () => now)).toBe('fresh');
    startEarly(['d', 1], () => Promise.resolve('farm 1'));
    expect(await takeEarly(['d', 2], () => Promise.resolve('farm 2'))).toBe('farm 2');
  });

  it('waits for early calls whose code is still loading instead of calling twice', async () => {
    let start!: () => void;
    earlyCallsStarting(new Promise<void>((resolve) => (start = () => { startEarly(['e'], () => Promise.resolve('early')); resolve(); })));
    const own = vi.fn(() => Promise.resolve('own'));
    const taken = takeEarly(['e'], own);
    start();
    expect(await taken).toBe('early');
    expect(own).not.toHaveBeenCalled();
    // A start-up whose early calls never came (their code failed to load) lets takers call.
    earlyCallsStarting(Promise.reject(new Error('chunk failed')));
    expect(await takeEarly(['f'], own)).toBe('own');
  });
});
