import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { OrganizationList } from '@shared/api/actions/farmer-organization';
import type { Organization } from '@shared/entities/organization';
import { openFarmerScreen, withSelectedFarm } from '../../../testing/selected-farm';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm('farm-1');

const org = (over: Partial<Organization> = {}): Organization => ({
  _id: 'org-1',
  name: 'North Group',
  tag: 'Group',
  contact: '',
  address: '',
  email: '',
  phone: '',
  package: 'Vat-Man Lite',
  parent_id: null,
  ...over,
});

const answer = (over: Partial<OrganizationList> = {}): OrganizationList => ({
  currentFarm: org(),
  listSub: [
    { _id: 'org-2', name: 'West Region', tag: 'Regional', is_farm: false },
    { _id: 'farm-1', name: 'Kowhai Flats', fonterra_id: 'OCD40721', tag: 'Farm', is_farm: true },
  ],
  listRole: [
    { user_id: 'u-1', role: 'Admin' },
    { user_id: 'u-2', role: 'User' },
  ],
  listUser: [
    { _id: 'u-1', firstName: 'Aroha', lastName: 'Ngata', email: 'a@x.nz' },
    { _id: 'u-2', firstName: 'Liam', lastName: 'Brennan', email: 'l@x.nz' },
  ],
  listParent: [],
  role: 'Admin',
  summary: { package: 'Vat-Man Lite', total_sms: 60, farms: [{ _id: 'farm-1', fonterra_id: 'OCD40721', name: 'Kowhai Flats', package: 'Vat-Man Lite', vats: 1, sms_sent: 7, sms_total: 60 }] },
  ...over,
});

describe('/dts/group/{organization_id} (farmer §2.12)', () => {
  it('asks ORGANIZATION_LIST for the route’s ids and shows the Summary with the §9 SMS total and each farm’s texts', async () => {
    const { api } = await openFarmerScreen('/dts/group/org-1/o/org-0', { ORGANIZATION_LIST: () => answer() }, { ready: 'North Group' });
    const call = api.callsOf('ORGANIZATION_LIST')[0];
    expect(call?.path).toBe('/api/farmer/organization');
    expect(call?.fields.get('organization_id')).toBe('org-1');
    expect(call?.fields.get('parent_id')).toBe('org-0');
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(within(summary).getByText('Total SMS').nextSibling?.textContent).toBe('60');
    expect(within(summary).getByRole('row', { name: /Kowhai Flats/ })).toHaveTextContent('7 of 60');
    // Sub-organizations link to their page with this one as parent; farms do not link.
    expect(screen.getByRole('link', { name: 'West Region' })).toHaveAttribute('href', '/dts/group/org-2/o/org-1');
    expect(screen.queryByRole('link', { name: 'Kowhai Flats' })).toBeNull();
  });

  it('has no Summary for Non-independent accounting, and the breadcrumb falls back to the supply id', async () => {
    await openFarmerScreen(
      '/dts/group/org-1',
      { ORGANIZATION_LIST: () => answer({ summary: null, currentFarm: org({ name: '', fonterra_id: 'SUP-9', package: 'Non-independent accounting' }), listParent: [{ _id: 'org-0', name: 'Top' }] }) },
      { ready: 'SUP-9' },
    );
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['All Organization', 'Top', 'SUP-9']);
  });

  it('shows a member (role User) the lists without Edit, Delete or Add', async () => {
    await openFarmerScreen('/dts/group/org-1', { ORGANIZATION_LIST: () => answer({ role: 'User' }) }, { ready: 'North Group' });
    expect(screen.getByRole('table', { name: 'Users' })).toHaveTextContent('Liam');
    expect(screen.queryByRole('button', { name: /Edit|Delete|Add/ })).toBeNull();
  });

  it('unlinks a user only after the confirmation, then reloads', async () => {
    const user = userEvent.setup();
    const { api } = await openFarmerScreen('/dts/group/org-1', { ORGANIZATION_LIST: () => answer(), ORGANIZATION_USER_UNLINK: () => 'success' }, { ready: 'North Group' });
    await user.click(screen.getByRole('button', { name: 'Delete Liam Brennan' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete it?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsOf('ORGANIZATION_USER_UNLINK')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete Liam Brennan' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Are you sure you want to delete it?' })).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(api.callsOf('ORGANIZATION_USER_UNLINK')).toHaveLength(1));
    expect(api.callsOf('ORGANIZATION_USER_UNLINK')[0]?.fields.get('user_id')).toBe('u-2');
    await waitFor(() => expect(api.callsOf('ORGANIZATION_LIST').length).toBeGreaterThan(1));
  });

  it.each([
    ['an unregistered email', 'No user is registered with this email. The user must first register in the system.'],
    ['an email its owner has not verified', 'That person has not verified their email address yet.'],
  ])('shows the server’s refusal of %s inside the add-user dialog', async (_what, refusal) => {
    const user = userEvent.setup();
    await openFarmerScreen('/dts/group/org-1', { ORGANIZATION_LIST: () => answer(), ORGANIZATION_USER_ADD: () => ({ status: 422, body: { message: refusal } }) }, { ready: 'North Group' });
    await user.click(screen.getByRole('button', { name: 'Add a user' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a user' });
    await user.type(within(dialog).getByLabelText('Email'), 'nobody@x.nz');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
  });

  it('goes to /dts/dashboard when the organization is missing or foreign (403)', async () => {
    const { router } = await openFarmerScreen('/dts/group/org-x', { ORGANIZATION_LIST: () => ({ status: 403, body: { message: 'Forbidden' } }), FARMER_DASHBOARD_GET: () => ({ status: 500 }) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/dashboard'));
  });
});
