/** '/' shows only the word Home (operator §2 Routes). */
export function HomePage() {
  return (
    <main className="page-message">
      <p>Home</p>
    </main>
  );
}
