import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../testing/render-app';

vi.mock('aws-amplify/auth', () => import('../testing/signed-out-auth'));

describe('route table', () => {
  it("'/' shows only the word Home", async () => {
    const { container } = renderApp('/');
    await screen.findByText('Home');
    expect(container.textContent).toBe('Home');
  });

  it.each(['/nowhere', '/dts/no-such-screen', '/dts/login/a/b'])("unmatched %s renders 'Promotion 404'", async (path) => {
    renderApp(path);
    expect(await screen.findByText('Promotion 404')).toBeInTheDocument();
  });

  it.each(['/dts/login', '/dts/login/%2Fdts%2Fdashboard'])('%s is the sign-in page', async (path) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByText('Promotion 404')).not.toBeInTheDocument();
  });
});
