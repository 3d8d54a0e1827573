import { screen, waitFor } from '@testing-library/react';
import { signOut } from 'aws-amplify/auth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubWebConfig } from '../../../testing/fake-api';
import { renderApp } from '../../../testing/render-app';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('/dts/permission', () => {
  it('explains that no farm is linked yet and to contact the provider', async () => {
    stubWebConfig();
    renderApp('/dts/permission');
    expect(await screen.findByRole('heading', { name: 'No Permission' })).toBeInTheDocument();
    expect(screen.getByText(/not linked to a farm yet/)).toBeInTheDocument();
    expect(screen.getByText(/contact your provider/)).toBeInTheDocument();
  });

  it('links to the configured support page and lists the support phone numbers (farmer §1, §2.1)', async () => {
    stubWebConfig({ supportUrl: 'https://support.vatman.example/help', supportPhones: [{ label: 'Vat-Man', phone: '0800 111 222' }] });
    renderApp('/dts/permission');
    await screen.findByRole('heading', { name: 'No Permission' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', 'https://support.vatman.example/help'));
    expect(screen.getByRole('link', { name: '0800 111 222' })).toHaveAttribute('href', 'tel:0800111222');
  });

  it('offers no support link that leads nowhere when none is configured', async () => {
    const configFetch = stubWebConfig();
    renderApp('/dts/permission');
    await screen.findByRole('heading', { name: 'No Permission' });
    await waitFor(() => expect(configFetch).toHaveBeenCalled());
    expect(screen.queryByRole('link', { name: 'Contact support' })).not.toBeInTheDocument();
  });

  it('Logout signs out and opens the login page', async () => {
    stubWebConfig();
    const { user, router } = renderApp('/dts/permission');
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login'));
    expect(signOut).toHaveBeenCalled();
  });
});
