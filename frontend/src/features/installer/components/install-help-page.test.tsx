import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '../../../app/provider';
import { stubWebConfig } from '../../../testing/fake-api';
import { testApiClient } from '../../../testing/render-app';
import { InstallHelpPage } from './install-help-page';

const renderPage = () =>
  render(
    <AppProvider apiClient={testApiClient()}>
      <MemoryRouter>
        <InstallHelpPage />
      </MemoryRouter>
    </AppProvider>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('Help page (operator §2)', () => {
  it('links to the post-install form when configured', async () => {
    stubWebConfig({ installFormUrl: 'https://forms.example/post-install' });
    renderPage();
    expect((await screen.findByRole('link', { name: 'Open the post-install form' })).getAttribute('href')).toBe('https://forms.example/post-install');
  });

  it("says the form's address is not configured rather than linking nowhere", async () => {
    stubWebConfig();
    renderPage();
    expect(await screen.findByText(/address is not configured/)).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
