import '@testing-library/jest-dom/vitest';
import 'vitest-canvas-mock';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy…/waitFor wait up to 5 s (the library's default is 1 s): a route that loads a screen's
// code on first visit (lazy routes) can take longer than a second on a busy 2-core CI machine.
// A test still fails the moment its assertion cannot hold; only slow successes stop failing.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});

// jsdom has no ResizeObserver; chart.js and responsive components need one.
class ResizeObserverStub implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub;
