/**
 * Resolves at the main thread's next idle moment (requestIdleCallback; at the latest after
 * `timeoutMs`), at once where the browser has none (jsdom). Work started then comes after what is
 * rendering now has been committed and painted: React's time-sliced renders keep the thread busy
 * until they are done.
 */
export const whenIdle = (timeoutMs = 1_000): Promise<void> =>
  new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else resolve();
  });
