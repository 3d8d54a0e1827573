import { CONFIG_PATH } from '../lib/web-config';

/** Rendered instead of the app when /config.json is missing or incomplete. */
export function ConfigErrorPage({ problems }: { readonly problems: readonly string[] }) {
  return (
    <main className="page-message config-error" role="alert">
      <h1>Vat-Man cannot start</h1>
      <p>
        The runtime configuration <code>{CONFIG_PATH}</code> is missing or incomplete:
      </p>
      <ul className="config-error__problems">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
      <p className="page-message__detail">The deployment needs fixing; then reload this page.</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
