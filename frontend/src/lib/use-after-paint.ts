import { useEffect, useState } from 'react';

/**
 * True once `ready` has been true through a painted frame: the frame after the one that showed it
 * (an animation frame runs before its paint, a task queued from it after). the milk
 * dashboard asks for the charts' code (chart.js, about 70 kB gzipped) only once the vat cards are on
 * screen, so it no longer shares a phone's bandwidth and main thread with the cards' first paint.
 */
export function useAfterPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return undefined;
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (task !== undefined) clearTimeout(task);
    };
  }, [ready, painted]);
  return painted;
}
