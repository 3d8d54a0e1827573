import { useEffect, useState } from 'react';

/**
 * Charts take their turn to draw, one per idle moment of the main thread, in the order they
 * mounted (issue 14: a dashboard of 12 charts drawn in one task blocked a phone for seconds). The
 * first paint shows the page without chart work; each chart is then a task of its own, short
 * enough not to block input. Where the browser has no idle callbacks (jsdom) every chart draws at once.
 */
type Turn = () => void;
const waiting: Turn[] = [];
let pumping = false;

const idleCallback = (): ((run: () => void) => void) | undefined =>
  typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function'
    ? (run) => {
        // At most a second's wait when the thread never goes idle.
        window.requestIdleCallback(run, { timeout: 1_000 });
      }
    : undefined;

const pump = (schedule: (run: () => void) => void) => {
  pumping = true;
  schedule(() => {
    waiting.shift()?.();
    if (waiting.length > 0) pump(schedule);
    else pumping = false;
  });
};

/** True once this component's turn to draw has come (at once without idle callbacks). */
export function useIdleTurn(): boolean {
  const [ready, setReady] = useState(() => idleCallback() === undefined);
  useEffect(() => {
    const schedule = idleCallback();
    if (ready || !schedule) return undefined;
    const turn: Turn = () => setReady(true);
    waiting.push(turn);
    if (!pumping) pump(schedule);
    return () => {
      const at = waiting.indexOf(turn);
      if (at >= 0) waiting.splice(at, 1);
    };
  }, [ready]);
  return ready;
}
