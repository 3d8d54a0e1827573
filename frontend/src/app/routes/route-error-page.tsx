import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/**
 * A screen threw while rendering or its code failed to load (typically a deploy replaced the
 * chunks this tab was built against): offer a reload rather than a blank page.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : undefined;
  return (
    <main className="page-message" role="alert">
      <h1>Something went wrong</h1>
      {detail && <p className="page-message__detail">{detail}</p>}
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
