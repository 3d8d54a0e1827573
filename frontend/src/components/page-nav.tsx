/**
 * Previous / 'Page N of M' / Next under a list paged on the client (operator §2 Users and Farms):
 * Previous goes to the page before, and each button is disabled at its end.
 */
export function PageNav({ page, pages, label, className, onPage }: { readonly page: number; readonly pages: number; readonly label: string; readonly className?: string; readonly onPage: (page: number) => void }) {
  return (
    <nav className={className} aria-label={label}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
