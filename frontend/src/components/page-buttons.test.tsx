import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PageButtons } from './page-buttons';

function Paged({ onPage }: { readonly onPage: (page: number) => void }) {
  const [page, setPage] = useState(1);
  return (
    <PageButtons
      page={page}
      onPage={(p) => {
        onPage(p);
        setPage(p);
      }}
    />
  );
}

describe('PageButtons', () => {
  it("on page 1 shows Next disabled; pressed anyway it asks for nothing and says 'No more data!'", async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    render(<Paged onPage={onPage} />);
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(next);
    expect(onPage).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('No more data!');
  });

  it('Previous goes back a page and clears the message; Next comes forward to page 1', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    render(<Paged onPage={onPage} />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPage).toHaveBeenLastCalledWith(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'false');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenLastCalledWith(1);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
  });
});
