import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '../../../app/provider';
import { fakeApi } from '../../../testing/fake-api';
import { testApiClient } from '../../../testing/render-app';
import { NewInstallPage } from './new-install-page';

const renderPage = () => {
  const api = fakeApi({});
  render(
    <AppProvider apiClient={testApiClient(api.fetch)}>
      <MemoryRouter>
        <NewInstallPage />
      </MemoryRouter>
    </AppProvider>,
  );
  return { api, user: userEvent.setup() };
};

describe('New Install (operator §2, §5)', () => {
  it("marks each empty required field 'Required Field', says so once beside the submit button (not under the Vat-Man Auto checkbox), and sends nothing", async () => {
    const { api, user } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Vat 1' }));
    const submit = screen.getByRole('button', { name: 'Submit New Install' });
    await user.click(submit);

    const panel = screen.getByRole('tabpanel', { name: 'Vat 1' });
    // Diameter, Capacity, Height, Radar Serial (operator §5): each under its own field.
    expect(within(panel).getAllByText('Required Field')).toHaveLength(4);
    expect(within(panel).getByLabelText(/^Radar Serial/).getAttribute('aria-invalid')).toBe('true');
    expect(within(panel).getByLabelText('Select if this Vat has Vat-Man Auto').getAttribute('aria-invalid')).toBeNull();

    // The form-wide note: one alert, in the buttons' row beside Submit, outside the fields.
    const note = screen.getByRole('alert');
    expect(note.textContent).toBe('Required Field');
    expect(panel.contains(note)).toBe(false);
    expect(note.parentElement).toBe(submit.parentElement);
    expect(submit.getAttribute('aria-describedby')).toBe(note.id);
    expect(api.calls).toHaveLength(0);
  });

  it('after a Submit, a field put right loses its mark at once, and its tab too once all its fields are right', async () => {
    const { user } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Vat 1' }));
    await user.click(screen.getByRole('button', { name: 'Submit New Install' }));
    const deviceTab = screen.getByRole('tab', { name: 'Device' });
    expect(deviceTab.className).toContain('installer__tab--error');

    await user.click(deviceTab);
    const panel = screen.getByRole('tabpanel', { name: 'Device' });
    const marked = within(panel).getAllByText('Required Field').length;
    expect(marked).toBeGreaterThan(0);
    await user.type(within(panel).getByLabelText(/^IMEI/), '356938035643809');
    expect(within(panel).queryAllByText('Required Field')).toHaveLength(marked - 1);
    expect(within(panel).getByLabelText(/^IMEI/).getAttribute('aria-invalid')).not.toBe('true');
    await user.type(within(panel).getByLabelText(/^Supply Number/), '12345');
    expect(within(panel).queryAllByText('Required Field')).toHaveLength(0);
    expect(screen.getByRole('tab', { name: 'Device' }).className).not.toContain('installer__tab--error');
    // The vat's fields are still empty: its tab keeps its mark, and so does the form-wide note.
    expect(screen.getByRole('tab', { name: 'Vat 1' }).className).toContain('installer__tab--error');
    expect(screen.getByRole('alert').textContent).toBe('Required Field');
  });

  it('shows no form-wide note before a submit', async () => {
    const { user } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Vat 1' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit New Install' }).getAttribute('aria-describedby')).toBeNull();
  });
});
