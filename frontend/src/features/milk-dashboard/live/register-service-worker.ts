/**
 * The offline app: the dashboard registers /sw.js (written by the build,
 * frontend/build/service-worker.ts), so once a farmer has opened it the dashboard opens again
 * with no signal. Not on the sign-in page: it stays small and fast. Only in a build:
 * the dev server has no sw.js. Registered once the page has loaded and the main thread is idle
 *: installing fetches every file of the build, which must not compete with the
 * dashboard's own first downloads and answers.
 */
export const registerServiceWorker = (): void => {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  const whenIdle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(register, { timeout: 5_000 }) : setTimeout(register, 0));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
};
