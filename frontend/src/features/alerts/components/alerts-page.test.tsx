import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NO_DETAIL_MESSAGE } from '@shared/api/actions/farmer-notification';
import { build } from '../../../testing/build';
import { fakeApi, type FakeHandler } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { withSelectedFarm } from '../../../testing/selected-farm';
import type { AlertItem } from '../api/notifications';
import { formatWhen } from '../../../lib/time-format';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();

let seq = 0;
/** A notification as the list answers it; vat 1, unread, a 102 at 22 Nov 2026 01:05 UTC (14:05 in Auckland). */
const alertOf = (over: Partial<AlertItem> & { vat?: number } = {}): AlertItem => {
  const { vat = 1, ...rest } = over;
  seq += 1;
  return {
    _id: `alert-${seq}`,
    farm_id: 'farm-1',
    type: 102,
    status: 1,
    data: { published_at: '2026-11-22T01:05:00.000Z', temp1: 8.46, milk_volume: 4234, agitator_status: 1 },
    device: { _id: `dev-${vat}`, name: `vat${vat}`, vat_number: vat },
    created_at: '2026-11-22T01:05:10.000Z',
    ...rest,
  };
};

/** A fake notification endpoint that keeps the list and applies edits, as the server does. */
const openAlerts = async (initial: AlertItem[], { detail }: { detail?: FakeHandler } = {}) => {
  let list = initial;
  const unread = () => list.filter((n) => n.status === 1).length;
  const api = fakeApi({
    USER_ONE_GET_BY_TOKEN: () => ({ user: build.user(), listFarm: [build.farm({ _id: 'farm-1' })], organization: null }),
    FARMER_NOTIFICATION_STATUS: () => (unread() > 0 ? 'YES' : 'NO'),
    FARMER_NOTIFICATION_LIST: () => list,
    FARMER_NOTIFICATION_ONE_EDIT: (fields) => {
      const id = (JSON.parse(fields.get('item') ?? '{}') as { _id: string })._id;
      const status = Number(fields.get('status')) as 1 | 2 | 3;
      list = list.map((n) => (n._id === id ? { ...n, status: n.status === 3 ? 3 : status } : n));
      const item = list.find((n) => n._id === id);
      return { item, unread: unread() };
    },
    FARMER_NOTIFICATION_DETAIL: detail ?? (() => ({ _id: null, message: NO_DETAIL_MESSAGE })),
  });
  const app = renderApp('/dts/notification', { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { level: 1, name: 'Alerts' });
  await waitFor(() => expect(api.callsOf('FARMER_NOTIFICATION_LIST')).toHaveLength(1));
  return { ...app, api };
};

const panel = () => screen.getByRole('tabpanel');
const vatTitles = () => within(panel()).queryAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const rowButtons = () => within(panel()).queryAllByRole('button', { expanded: false }).concat(within(panel()).queryAllByRole('button', { expanded: true }));

describe('/dts/notification (farmer §2.8)', () => {
  it('asks for the selected farm and groups the Alerts tab by vat, vats in order', async () => {
    const { api } = await openAlerts([alertOf({ vat: 2, type: 301 }), alertOf({ vat: 1, type: 101 }), alertOf({ vat: 2, type: 401 })]);
    expect(api.callsOf('FARMER_NOTIFICATION_LIST')[0]?.path).toBe('/api/farmer/notification');
    expect(api.callsOf('FARMER_NOTIFICATION_LIST')[0]?.fields.get('farm')).toBe('farm-1');
    await waitFor(() => expect(vatTitles()).toEqual(['Vat 1', 'Vat 2']));
    const vat2 = screen.getByRole('region', { name: 'Vat 2' });
    expect(within(vat2).getAllByRole('button', { expanded: false }).map((b) => b.textContent)).toEqual([
      expect.stringContaining('Power outage'),
      expect.stringContaining('Agitator stopped'),
    ]);
  });

  it('Alerts holds non-archived types below 1000; Archive holds status 3 only', async () => {
    const { user } = await openAlerts([
      alertOf({ type: 101, status: 1 }),
      alertOf({ type: 104, status: 2 }),
      alertOf({ type: 201, status: 3 }),
      alertOf({ type: 1003, status: 1 }),
    ]);
    await screen.findByText('Temperature over 10°C');
    expect(within(panel()).getByText('TooCold')).toBeInTheDocument();
    expect(within(panel()).queryByText('Volume over 80%')).not.toBeInTheDocument();
    expect(within(panel()).queryByText('APC high')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Archive' }));
    expect(screen.getByRole('tab', { name: 'Archive' })).toHaveAttribute('aria-selected', 'true');
    expect(within(panel()).getByText('Volume over 80%')).toBeInTheDocument();
    expect(within(panel()).queryByText('Temperature over 10°C')).not.toBeInTheDocument();
    expect(within(panel()).queryByText('APC high')).not.toBeInTheDocument();
    // An archived alert has nothing left to archive.
    expect(within(panel()).queryByRole('button', { name: /^Archive / })).not.toBeInTheDocument();
  });

  it("shows a dairy-company alert's own figure (farmer §9): the quality value for 1001-1004, the minutes late for 1201", async () => {
    const { user } = await openAlerts([
      alertOf({ type: 1003, status: 3, quality: { value: 5.4 } }),
      alertOf({ type: 1201, status: 3, vat: 2, lateMilking: { end_time_current: '2026-11-22T05:20:00.000Z', end_time_schedule: '2026-11-22T04:00:00.000Z' } }),
    ]);
    await user.click(await screen.findByRole('tab', { name: 'Archive' }));
    await user.click(within(panel()).getByRole('button', { name: /^APC high/ }));
    await user.click(within(panel()).getByRole('button', { name: /^late milking/ }));
    const facts = within(panel()).getAllByRole('definition').map((d) => d.textContent);
    expect(facts).toEqual(expect.arrayContaining(['5.40', '80 min']));
    expect(within(panel()).queryByText('Temperature')).not.toBeInTheDocument();
  });

  it('expanding shows type, local time, temperature, volume and agitator', async () => {
    const { user } = await openAlerts([alertOf({ status: 2 })]);
    await user.click(await screen.findByRole('button', { name: /^Temperature over 6°C/, expanded: false }));
    const facts = (label: string) => within(panel()).getByText(label, { selector: 'dt' }).nextSibling?.textContent;
    expect(facts('Alert')).toBe('Temperature over 6°C');
    // The farm's clock, named: the tests' browser runs in UTC (lib/time-format.ts).
    expect(facts('When')).toBe('22 Nov 2026 14:05 NZDT');
    expect(facts('Temperature')).toBe('8.5 °C');
    expect(facts('Volume')).toBe('4,230 L');
    expect(facts('Agitator')).toBe('Running');
    await user.click(screen.getByRole('button', { name: /^Temperature over 6°C/, expanded: true }));
    expect(within(panel()).queryByText('Agitator', { selector: 'dt' })).not.toBeInTheDocument();
  });

  it('opening an unread alert marks it read (status 2) and refreshes the list and the unread marker', async () => {
    const unreadOne = alertOf({ status: 1 });
    const { user, api } = await openAlerts([unreadOne, alertOf({ status: 2, type: 301 })]);
    expect(await screen.findByRole('link', { name: /^Notifications\s*\(new\)$/ })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /^Alerts\s*\(1 unread\)$/ })).toBeInTheDocument();
    const statusCalls = api.callsOf('FARMER_NOTIFICATION_STATUS').length;
    await user.click(screen.getByRole('button', { name: /^Temperature over 6°C/ }));
    await waitFor(() => expect(api.callsOf('FARMER_NOTIFICATION_ONE_EDIT')).toHaveLength(1));
    expect(api.jsonField('FARMER_NOTIFICATION_ONE_EDIT', 'item')).toEqual({ _id: unreadOne._id });
    expect(api.callsOf('FARMER_NOTIFICATION_ONE_EDIT')[0]?.fields.get('status')).toBe('2');
    expect(api.callsOf('FARMER_NOTIFICATION_ONE_EDIT')[0]?.fields.get('farm')).toBe('farm-1');
    await waitFor(() => expect(api.callsOf('FARMER_NOTIFICATION_LIST')).toHaveLength(2));
    await waitFor(() => expect(api.callsOf('FARMER_NOTIFICATION_STATUS').length).toBeGreaterThan(statusCalls));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Notifications' })).toHaveTextContent(/^Notifications$/));
    expect(await screen.findByRole('tab', { name: 'Alerts' })).toBeInTheDocument();
  });

  it('opening a read alert or an archived one changes nothing', async () => {
    const { user, api } = await openAlerts([alertOf({ status: 2 }), alertOf({ status: 3, type: 301 })]);
    await user.click(await screen.findByRole('button', { name: /^Temperature over 6°C/ }));
    await user.click(screen.getByRole('tab', { name: 'Archive' }));
    await user.click(within(panel()).getByRole('button', { name: /^Power outage/ }));
    expect(within(panel()).getByText('Agitator', { selector: 'dt' })).toBeInTheDocument();
    expect(api.callsOf('FARMER_NOTIFICATION_ONE_EDIT')).toHaveLength(0);
  });

  it('the archive button sets status 3; the alert moves to Archive and the unread total is recalculated', async () => {
    const one = alertOf({ status: 1, type: 401 });
    const { user, api } = await openAlerts([one]);
    await screen.findByRole('link', { name: /^Notifications\s*\(new\)$/ });
    await user.click(screen.getByRole('button', { name: /^Archive Agitator stopped at 22 Nov 2026 14:05 NZDT$/ }));
    await waitFor(() => expect(api.callsOf('FARMER_NOTIFICATION_ONE_EDIT')[0]?.fields.get('status')).toBe('3'));
    expect(api.jsonField('FARMER_NOTIFICATION_ONE_EDIT', 'item')).toEqual({ _id: one._id });
    expect(await within(panel()).findByText('No alerts.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Notifications' })).toHaveTextContent(/^Notifications$/));
    await user.click(screen.getByRole('tab', { name: 'Archive' }));
    expect(within(panel()).getByText('Agitator stopped')).toBeInTheDocument();
  });

  it('View detail opens the storage activity of the alert', async () => {
    const one = alertOf({ status: 2 });
    // The server's answer: the storage activity, its vat and the alert (shared/api notificationDetailAnswerSchema).
    const activity = {
      kind: 'storage',
      start: { published_at: '2026-11-21T20:00:00.000Z', milk_volume: 0, temp1: 4, temp2: null, temp3: null },
      end: null,
      device_id: 'dev-1',
      farm_id: 'farm-1',
    };
    const { user, router, api } = await openAlerts([one], {
      detail: () => ({ _id: 'dev-1~storage~2026-11-21T20:00:00.000Z', activity, device: one.device, alert_id: one._id }),
    });
    await user.click(await screen.findByRole('button', { name: /^Temperature over 6°C/ }));
    await user.click(screen.getByRole('button', { name: 'View detail' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/dts/storage/${encodeURIComponent('dev-1~storage~2026-11-21T20:00:00.000Z')}/alert/${one._id}`),
    );
    expect(api.jsonField('FARMER_NOTIFICATION_DETAIL', 'item')).toEqual({ _id: one._id });
  });

  it("with no detail it says 'No detail, please contact customer support!' and stays", async () => {
    const { user, router } = await openAlerts([alertOf({ status: 2 })]);
    await user.click(await screen.findByRole('button', { name: /^Temperature over 6°C/ }));
    await user.click(screen.getByRole('button', { name: 'View detail' }));
    expect(await screen.findByTestId('snackbar-text')).toHaveTextContent(NO_DETAIL_MESSAGE);
    expect(router.state.location.pathname).toBe('/dts/notification');
  });

  it('a critical alert lists its escalation steps; another alert asks for none', async () => {
    const critical = alertOf({ type: 101, status: 2 });
    const other = alertOf({ type: 104, status: 2 });
    const { user, api } = await openAlerts([critical, other], {
      detail: () => ({
        _id: null,
        message: NO_DETAIL_MESSAGE,
        escalations: [
          { step: 1, recipient: 'Aroha Ngata', channel: 'sms', due_at: '2026-11-22T01:20:10.000Z', state: 'sent', settled_at: '2026-11-22T01:20:30.000Z' },
          { step: 2, recipient: 'Liam Brennan', channel: 'sms', due_at: '2026-11-22T01:35:10.000Z', state: 'skipped', reason: 'the alert was read before the escalation was due' },
        ],
      }),
    });
    await user.click(await screen.findByRole('button', { name: /^Temperature over 10°C/ }));
    const steps = await screen.findByRole('region', { name: 'Escalation' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Sent again \(unread\) to Aroha Ngata by text at 22 Nov 2026 \d\d:20.*: sent$/),
      expect.stringMatching(/^Sent to the organization \(unread\) to Liam Brennan by text at 22 Nov 2026 \d\d:35.*: not sent \(the alert was read before the escalation was due\)$/),
    ]);
    expect(api.jsonField('FARMER_NOTIFICATION_DETAIL', 'item')).toEqual({ _id: critical._id });
    await user.click(screen.getByRole('button', { name: /^TooCold/ }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'View detail' })).toHaveLength(2));
    expect(api.callsOf('FARMER_NOTIFICATION_DETAIL')).toHaveLength(1);
  });

  it('says so when there are no alerts', async () => {
    await openAlerts([]);
    expect(await within(panel()).findByText('No alerts.')).toBeInTheDocument();
    expect(rowButtons()).toHaveLength(0);
  });
});

describe("formatWhen (farmer §9 DD MMM YYYY HH:mm, the farm's time, named as the browser here is in UTC)", () => {
  it.each([
    ['2026-11-22T01:05:00.000Z', 'Pacific/Auckland', '22 Nov 2026 14:05 NZDT'],
    ['2026-09-03 23:30:00', 'Pacific/Auckland', '04 Sep 2026 11:30 NZST'],
    ['2026-06-30T12:00:00Z', 'UTC', '30 Jun 2026 12:00'],
    ['not a time', 'UTC', 'not a time'],
  ])('%s in %s → %s', (text, zone, out) => {
    expect(formatWhen(text, zone)).toBe(out);
  });
});
