/** Any unmatched path (farmer §2.1). */
export function NotFoundPage() {
  return (
    <main className="page-message">
      <p>Promotion 404</p>
    </main>
  );
}
