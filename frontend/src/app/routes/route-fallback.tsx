/** Shown while the first screen's code loads (operator §2: a 'Loading...' fallback). */
export function RouteFallback() {
  return (
    <main className="page-message" aria-busy="true">
      <p>Loading...</p>
    </main>
  );
}
