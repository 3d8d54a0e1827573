import { useState } from 'react';
import { NO_MORE_DATA } from '@shared/api/range';

/**
 * Paging back in time (farmer §2.5, §2.6): Previous shows the page before (page + 1, further
 * back), Next the one after. On page 1 Next is shown disabled (§2.5) and asks for nothing; pressed
 * anyway, it says 'No more data!' (§8), as a Lite farm paging forward at page 1 expects.
 */
export function PageButtons({ page, onPage }: { readonly page: number; readonly onPage: (page: number) => void }) {
  const [pastPresent, setPastPresent] = useState(false);
  const atPresent = page <= 1;
  const go = (next: number) => {
    setPastPresent(false);
    onPage(next);
  };
  return (
    <>
      <button type="button" className="button" onClick={() => go(page + 1)}>
        Previous
      </button>
      <button type="button" className="button" aria-disabled={atPresent} onClick={() => (atPresent ? setPastPresent(true) : go(page - 1))}>
        Next
      </button>
      {pastPresent && atPresent && (
        <p className="page-buttons__problem" role="alert">
          {NO_MORE_DATA}
        </p>
      )}
    </>
  );
}
