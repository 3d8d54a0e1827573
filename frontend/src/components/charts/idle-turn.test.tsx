import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeferOffscreenCharts, NEAR_MARGIN, useChartTurn } from './idle-turn';

/** An IntersectionObserver the test drives: `enter()` tells every observer its element came near. */
const fakeObservers = () => {
  const observers: { callback: IntersectionObserverCallback; targets: Element[]; options?: IntersectionObserverInit }[] = [];
  class FakeObserver {
    private readonly entry: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { callback, targets: [], ...(options ? { options } : {}) };
      observers.push(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.push(target);
    }
    disconnect() {
      this.entry.targets = [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  const enter = (which: (target: Element) => boolean) =>
    act(() => {
      for (const o of observers) {
        const near = o.targets.filter(which);
        if (near.length > 0) o.callback(near.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry), o as unknown as IntersectionObserver);
      }
    });
  return { observers, enter };
};

/** Idle callbacks the test runs by hand. */
const fakeIdle = () => {
  const queue: (() => void)[] = [];
  vi.stubGlobal('requestIdleCallback', (run: () => void) => queue.push(run));
  const idle = () => act(() => queue.shift()?.());
  return { queue, idle };
};

function Probe({ name }: { readonly name: string }) {
  const [place, ready] = useChartTurn();
  return <div ref={place} data-testid={name}>{ready ? `${name} drawn` : `${name} waiting`}</div>;
}

afterEach(() => vi.unstubAllGlobals());

describe('useChartTurn', () => {
  it('under DeferOffscreenCharts a chart queues for its idle turn only once it nears the screen; the nearer ones draw first', () => {
    const { observers, enter } = fakeObservers();
    const { idle, queue } = fakeIdle();
    render(
      <DeferOffscreenCharts value={true}>
        <Probe name="top" />
        <Probe name="below" />
      </DeferOffscreenCharts>,
    );
    expect(observers.map((o) => o.options?.rootMargin)).toEqual([NEAR_MARGIN, NEAR_MARGIN]);
    // Nothing near yet: no idle work is asked for, however long the page waits.
    expect(queue).toHaveLength(0);
    enter((t) => t === screen.getByTestId('below'));
    enter((t) => t === screen.getByTestId('top'));
    idle();
    expect(screen.getByText('below drawn')).toBeInTheDocument();
    expect(screen.getByText('top waiting')).toBeInTheDocument();
    idle();
    expect(screen.getByText('top drawn')).toBeInTheDocument();
  });

  it('elsewhere a chart takes its idle turn without waiting to be seen', () => {
    const { observers } = fakeObservers();
    const { idle } = fakeIdle();
    render(<Probe name="chart" />);
    expect(observers).toHaveLength(0);
    expect(screen.getByText('chart waiting')).toBeInTheDocument();
    idle();
    expect(screen.getByText('chart drawn')).toBeInTheDocument();
  });
});
