import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '@shared/entities/user';
import { build } from '../../../testing/build';
import { fakeApi, type FakeHandler } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { withSelectedFarm } from '../../../testing/selected-farm';
import { codeInput } from './verify-dialogs';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();

const openProfile = async (path = '/dts/user/profile', { user = build.user(), handlers = {} }: { user?: User; handlers?: Record<string, FakeHandler> } = {}) => {
  let stored = user;
  const api = fakeApi({
    USER_ONE_GET_BY_TOKEN: () => ({ user: stored, listFarm: [build.farm({ _id: 'farm-1' })], organization: null }),
    USER_PROFILE_DATAILS: () => stored,
    USER_PROFILE_EDIT_BASE: (fields) => {
      const change = JSON.parse(fields.get('user') ?? '{}') as Partial<User>;
      stored = { ...stored, ...change, ...(change.phone !== user.phone ? { phone_verify: 1 as const } : {}) };
      return stored;
    },
    USER_PROFILE_EDIT_PASSWORD: () => 'success',
    USER_PROFILE_VERIFY_SEND_EMAIL: () => 'success',
    USER_PROFILE_VERIFY_SEND_PHONE: () => 'success',
    USER_PROFILE_VERIFY_CHECK_PHONE: (fields) => {
      if (fields.get('verification') !== '123456') return { status: 422, body: { message: 'Phone verification failed' } };
      stored = { ...stored, phone_verify: 2 };
      return 'Phone verify success';
    },
    USER_PROFILE_VERIFY_CHECK_EMAIL: (fields) => {
      if (fields.get('verification') !== '654321') return { status: 422, body: { message: 'Email verification failed' } };
      stored = { ...stored, email_verify: 2 };
      return 'Email verify success';
    },
    USER_ALERT_EMAIL_STATUS: () => ({ status: 'confirmed' }),
    ...handlers,
  });
  const app = renderApp(path, { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('form', { name: 'Profile' });
  return { ...app, api };
};

describe('codeInput (farmer §5: at most 6 digits, no negatives)', () => {
  it.each([
    ['-12', '12'],
    ['12a3', '123'],
    ['1234567', '123456'],
    ['1.5', '15'],
    [' 123 456 ', '123456'],
  ])('%j → %j', (typed, kept) => expect(codeInput(typed)).toBe(kept));
});

describe('/dts/user/profile (farmer §2.10)', () => {
  it('shows the names, the read-only email and the phone with their verified icons', async () => {
    await openProfile('/dts/user/profile', { user: build.user({ email_verify: 2, phone_verify: 1 }) });
    expect(screen.getByLabelText('First Name')).toHaveValue(build.user().firstName);
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('readonly');
    expect(screen.getByRole('img', { name: 'Email verified' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Phone not verified: verify it' })).toBeInTheDocument();
  });

  it("saves the names: 'Success!', and the server gets the edit", async () => {
    const { user, api } = await openProfile();
    await user.clear(screen.getByLabelText('First Name'));
    await user.type(screen.getByLabelText('First Name'), 'Mereana');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Success!')).toBeInTheDocument();
    expect(JSON.parse(api.callsOf('USER_PROFILE_EDIT_BASE')[0]?.fields.get('user') ?? '{}')).toMatchObject({ firstName: 'Mereana' });
  });

  it('refuses a name with markup in it with the names message, and sends nothing', async () => {
    const { user, api } = await openProfile();
    await user.clear(screen.getByLabelText('Last Name'));
    await user.type(screen.getByLabelText('Last Name'), '<b>Boss</b>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Names may contain letters, spaces, hyphens and apostrophes.');
    expect(api.callsOf('USER_PROFILE_EDIT_BASE')).toHaveLength(0);
  });

  it('the email dialog sends the link and closes with the spec message', async () => {
    const { user, api } = await openProfile('/dts/user/profile', { user: build.user({ email_verify: 1 }) });
    await user.click(screen.getByRole('button', { name: 'Email not verified: verify it' }));
    const dialog = screen.getByRole('dialog', { name: 'Verify my Email' });
    await user.click(within(dialog).getByRole('button', { name: 'Send a Email to me' }));
    expect(await screen.findByText('Please check the email and complete the rest of the operation!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsOf('USER_PROFILE_VERIFY_SEND_EMAIL')).toHaveLength(1);
  });

  it('the phone dialog texts a code and checks itself at exactly six digits; a wrong code fails and clears', async () => {
    const { user, api } = await openProfile('/dts/user/profile', { user: build.user({ phone_verify: 1 }) });
    await user.click(screen.getByRole('button', { name: 'Phone not verified: verify it' }));
    const dialog = screen.getByRole('dialog', { name: 'Verify my Phone Number' });
    await user.click(within(dialog).getByRole('button', { name: 'Send a Code to me' }));
    expect(await screen.findByText('Text message has been sent!')).toBeInTheDocument();
    const box = within(dialog).getByLabelText('Please enter verification code');
    await user.type(box, '-11111');
    expect(box).toHaveValue('11111');
    expect(api.callsOf('USER_PROFILE_VERIFY_CHECK_PHONE')).toHaveLength(0);
    await user.type(box, '9');
    expect(await screen.findByText('Phone verification failed')).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue(''));
    await user.type(box, '1234567');
    expect(await screen.findByText('Phone verification succeeded')).toBeInTheDocument();
    expect(api.callsOf('USER_PROFILE_VERIFY_CHECK_PHONE').map((c) => c.fields.get('verification'))).toEqual(['111119', '123456']);
    expect(await screen.findByRole('img', { name: 'Phone verified' })).toBeInTheDocument();
  });

  it('the emailed link checks the email once and drops the code from the route', async () => {
    const { router, api } = await openProfile('/dts/user/profile/654321', { user: build.user({ email_verify: 1 }) });
    expect(await screen.findByText('Email verification succeeded')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/user/profile'));
    expect(api.callsOf('USER_PROFILE_VERIFY_CHECK_EMAIL')).toHaveLength(1);
    expect(await screen.findByRole('img', { name: 'Email verified' })).toBeInTheDocument();
  });

  it('changes the password and clears the three fields', async () => {
    const { user, api } = await openProfile();
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'Old-pass-1');
    await user.type(within(form).getByLabelText('New password'), 'New-pass-1');
    await user.type(within(form).getByLabelText('Repeat new password'), 'New-pass-1');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Success!')).toBeInTheDocument();
    for (const label of ['Current password', 'New password', 'Repeat new password']) expect(within(form).getByLabelText(label)).toHaveValue('');
    expect(Object.fromEntries(api.callsOf('USER_PROFILE_EDIT_PASSWORD')[0]?.fields ?? [])).toMatchObject({ password: 'Old-pass-1', password1: 'New-pass-1', password2: 'New-pass-1' });
  });
});

describe('/dts/survey (farmer §2.16)', () => {
  const openEnquiry = async () => {
    const api = fakeApi({
      USER_ONE_GET_BY_TOKEN: () => ({ user: build.user(), listFarm: [build.farm({ _id: 'farm-1' })], organization: null }),
      USER_PROFILE_DATAILS: () => ({ user: build.user(), farms: [build.farm({ _id: 'farm-1', fonterra_id: '31245' }), build.farm({ _id: 'farm-2', fonterra_id: 'OCD40721' })] }),
      SURVEY_SUBMIT: () => 'Submit was successful, we will contact you soon.',
    });
    const app = renderApp('/dts/survey', { apiClient: testApiClient(api.fetch) });
    await screen.findByRole('heading', { level: 1, name: 'Enquiry' });
    await screen.findByRole('region', { name: 'Supply Number' });
    return { ...app, api };
  };

  it('shows the profile read-only, one ticked disabled box per supply number, and the seven products', async () => {
    await openEnquiry();
    const supply = screen.getByRole('region', { name: 'Supply Number' });
    expect(within(supply).getAllByRole('checkbox').map((c) => [c.parentElement?.textContent, (c as HTMLInputElement).checked, (c as HTMLInputElement).disabled])).toEqual([
      ['31245', true, true],
      ['OCD40721', true, true],
    ]);
    const form = screen.getByRole('form', { name: 'Interested in other monitoring solutions?' });
    expect(within(form).getAllByRole('checkbox').map((c) => c.parentElement?.textContent)).toEqual(['Water', 'Effluent', 'Soil', 'Weather', 'Grain Silo', 'Asset Tracking', 'Dairy Automation']);
    expect(screen.getByLabelText('Last Name')).toHaveAttribute('readonly');
  });

  it("refuses an empty enquiry with 'Please select at least one option.' and sends nothing", async () => {
    const { user, api } = await openEnquiry();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please select at least one option.')).toBeInTheDocument();
    expect(api.callsOf('SURVEY_SUBMIT')).toHaveLength(0);
  });

  it('submits the ticked products and shows the spec message', async () => {
    const { user, api } = await openEnquiry();
    await user.click(screen.getByRole('checkbox', { name: 'Soil' }));
    await user.click(screen.getByRole('checkbox', { name: 'Dairy Automation' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Submit was successful, we will contact you soon.')).toBeInTheDocument();
    expect(JSON.parse(api.callsOf('SURVEY_SUBMIT')[0]?.fields.get('products') ?? '{}')).toEqual({ water: false, effluent: false, soil: true, weather: false, grain: false, asset: false, dairy: true });
  });
});

describe('alert email confirmation', () => {
  it("says 'Alert email not confirmed' while the subscription waits; Resend subscribes again and says to check the email", async () => {
    const { api } = await openProfile('/dts/user/profile', {
      handlers: { USER_ALERT_EMAIL_STATUS: () => ({ status: 'pending' }), USER_ALERT_EMAIL_RESEND: () => ({ status: 'pending' }) },
    });
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Alert email not confirmed');
    within(notice).getByRole('button', { name: 'Resend' }).click();
    await screen.findByText('Please check the email and complete the rest of the operation!');
    expect(api.callsOf('USER_ALERT_EMAIL_RESEND')).toHaveLength(1);
    expect(api.callsOf('USER_ALERT_EMAIL_RESEND')[0]?.path).toBe('/api/setting/profile');
  });

  it('shows nothing once confirmed', async () => {
    const { api } = await openProfile();
    await waitFor(() => expect(api.callsOf('USER_ALERT_EMAIL_STATUS')).toHaveLength(1));
    expect(screen.queryByText('Alert email not confirmed')).not.toBeInTheDocument();
  });
});
