/**
 * The offline app (issue 26): the dashboard registers /sw.js (written by the build,
 * frontend/build/service-worker.ts), so once a farmer has opened it the dashboard opens again
 * with no signal. Not on the sign-in page: it stays small and fast (issue 14). Only in a build:
 * the dev server has no sw.js.
 */
export const registerServiceWorker = (): void => {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').catch(() => undefined);
};
