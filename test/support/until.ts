/**
 * Polls `probe` until it answers something other than undefined, and returns that; fails naming
 * `what` after `timeoutMs`. For tests that wait on the local stack (the ingest, the alert engine,
 * the outbox).
 */
export const until = async <T>(
  probe: () => Promise<T | undefined>,
  { timeoutMs = 30_000, everyMs = 100, what = 'a condition' }: { readonly timeoutMs?: number; readonly everyMs?: number; readonly what?: string } = {},
): Promise<T> => {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};
