/**
 * Paging back in time (farmer §2.5, §2.6): Previous shows the page before (page + 1, further
 * back), Next the one after, disabled on page 1 so paging never passes the present.
 */
export function PageButtons({ page, onPage }: { readonly page: number; readonly onPage: (page: number) => void }) {
  return (
    <>
      <button type="button" className="button" onClick={() => onPage(page + 1)}>
        Previous
      </button>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Next
      </button>
    </>
  );
}
