import { createContext, useContext, useEffect, useState, type RefCallback } from 'react';

/**
 * Charts take their turn to draw, one per idle moment of the main thread, in the order they
 * mounted (a dashboard of 12 charts drawn in one task blocked a phone for seconds). The
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

/** True once this component's turn to draw has come (at once without idle callbacks); it queues only while `wanted`. */
function useIdleTurn(wanted = true): boolean {
  const [ready, setReady] = useState(() => idleCallback() === undefined);
  useEffect(() => {
    const schedule = idleCallback();
    if (ready || !wanted || !schedule) return undefined;
    const turn: Turn = () => setReady(true);
    waiting.push(turn);
    if (!pumping) pump(schedule);
    return () => {
      const at = waiting.indexOf(turn);
      if (at >= 0) waiting.splice(at, 1);
    };
  }, [ready, wanted]);
  return ready;
}

/**
 * Within a screen that provides `true` (the milk dashboard: 12 charts under the vat cards), a chart
 * below the fold waits until it comes within NEAR_MARGIN of the viewport before queueing for its
 * turn: the charts on screen draw first, the others as the farmer scrolls to them.
 */
const DeferOffscreen = createContext(false);
export const DeferOffscreenCharts = DeferOffscreen.Provider;

/** Half a screen below the fold: a chart starts drawing before it scrolls into view. */
export const NEAR_MARGIN = '0px 0px 50% 0px';

/**
 * Whether the element given to the ref has come within NEAR_MARGIN of the viewport (it stays true
 * after). True at once unless `defer`, and where there is no IntersectionObserver (jsdom).
 */
export function useNearScreen(defer: boolean): readonly [RefCallback<Element>, boolean] {
  const [near, setNear] = useState(() => !defer || typeof IntersectionObserver === 'undefined');
  const [place, setPlace] = useState<Element | null>(null);
  useEffect(() => {
    if (near || !place) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(place);
    return () => observer.disconnect();
  }, [near, place]);
  return [setPlace, near] as const;
}

/**
 * A chart's turn (useIdleTurn), waiting first to be near the viewport under DeferOffscreenCharts.
 * Put the ref on the element that holds the chart's place.
 */
export function useChartTurn(): readonly [RefCallback<Element>, boolean] {
  const [place, near] = useNearScreen(useContext(DeferOffscreen));
  return [place, useIdleTurn(near)] as const;
}
