import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ComplianceRecord } from '@shared/api/actions/farmer-compliance';
import type { RuleResult } from '@shared/compliance/cooling-rules';
import { openFarmerScreen, withSelectedFarm } from '../../../testing/selected-farm';
import { buildComplianceCsv, sha256Hex } from '../utils/record';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm('farm-1');

const rule = (r: RuleResult['rule'], status: RuleResult['status'], at: string | null = null): RuleResult => ({
  rule: r,
  text: `${r} text`,
  status,
  passed: status === 'passed' ? true : status === 'failed' ? false : null,
  met_at: status === 'passed' ? at : null,
  failed_at: status === 'failed' ? at : null,
  deadline: null,
  detail: '',
});

const RECORD: ComplianceRecord = {
  farm: { _id: 'farm-1', name: 'Kowhai Flats', supply_number: 'OCD40721', timezone: 'Pacific/Auckland' },
  period: { from: '2026-05-31T12:00:00.000Z', to: '2026-11-25T00:00:00.000Z', startDate: '2026-06-01', endDate: '2027-05-31', page_index: null },
  rules: (['R1', 'R2', 'R3', 'R4'] as const).map((r) => ({ rule: r, text: `${r} text` })),
  generated_at: '2026-11-25T00:00:00.000Z',
  vats: [
    {
      vat_number: 1,
      milkings: [
        {
          _id: 'dev-1~milking~2026-11-01T17:00:00.000Z',
          vat_number: 1,
          start: '2026-11-01T17:00:00.000Z',
          end: '2026-11-01T19:00:00.000Z',
          volume: 6000,
          verdict: 'compliant',
          rules: [rule('R1', 'passed', '2026-11-01T19:30:00.000Z'), rule('R2', 'passed', '2026-11-01T20:00:00.000Z'), rule('R3', 'passed', '2026-11-02T04:00:00.000Z'), rule('R4', 'not_applicable')],
          peak_c: null,
          exceptions: [],
          curve: [],
        },
        {
          _id: 'dev-1~milking~2026-11-02T17:00:00.000Z',
          vat_number: 1,
          start: '2026-11-02T17:00:00.000Z',
          end: '2026-11-02T19:00:00.000Z',
          volume: 6100,
          verdict: 'failed',
          rules: [rule('R1', 'failed', '2026-11-02T21:00:00.000Z'), rule('R2', 'failed', '2026-11-02T21:00:00.000Z'), rule('R3', 'no_data'), rule('R4', 'not_applicable')],
          peak_c: 12.5,
          exceptions: [{ kind: 'battery_off', start: '2026-11-02T18:00:00.000Z', end: '2026-11-02T18:40:00.000Z' }],
          curve: [{ t: '2026-11-02T17:00:00.000Z', c: 11 }],
        },
      ],
    },
    { vat_number: 2, milkings: [] },
  ],
};

afterEach(() => vi.restoreAllMocks());

describe('/dts/compliance', () => {
  it('shows the season: the summary, worst cases, every milking per vat with its rules, verdict and exceptions', async () => {
    const { api } = await openFarmerScreen('/dts/compliance', { FARMER_COMPLIANCE_RECORD: () => RECORD }, { ready: 'Cooling compliance' });
    const summary = await screen.findByRole('region', { name: 'Summary' });
    expect(summary).toHaveTextContent('Milkings2');
    expect(summary).toHaveTextContent('Compliant1 (50.0 %)');
    expect(within(summary).getByRole('listitem')).toHaveTextContent('Vat 1, 03 Nov 2026 06:00 NZDT: Failed R1 R2, up to 12.5 °C');
    const vat1 = screen.getByRole('region', { name: 'Vat 1' });
    const rows = within(vat1).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').at(-1)?.textContent)).toEqual(['Compliant', 'Failed R1 R2']);
    expect(rows[1]).toHaveTextContent('Power cut (monitor on battery) 03 Nov 2026 07:00 to 03 Nov 2026 07:40 (40 min)');
    expect(rows[1]).toHaveTextContent('FAIL03 Nov 2026 10:00');
    expect(within(screen.getByRole('region', { name: 'Vat 2' })).getByText('No milkings in this period.')).toBeInTheDocument();
    // No dates asked: the server's default, the current season; the form shows it.
    expect(api.callsOf('FARMER_COMPLIANCE_RECORD')[0]?.fields.get('startDate')).toBeNull();
    expect(screen.getByLabelText('From')).toHaveValue('2026-06-01');
    expect(screen.getByRole('link', { name: 'Compliance' })).toHaveAttribute('aria-current', 'page');
  });

  it('asks for the chosen period, and refuses a reversed one without calling', async () => {
    const { api, user } = await openFarmerScreen('/dts/compliance', { FARMER_COMPLIANCE_RECORD: () => RECORD }, { ready: 'Cooling compliance' });
    await screen.findByRole('region', { name: 'Summary' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-01' } });
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The end must not be before the start.');
    expect(api.callsOf('FARMER_COMPLIANCE_RECORD')).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(api.callsOf('FARMER_COMPLIANCE_RECORD')).toHaveLength(2));
    expect(api.callsOf('FARMER_COMPLIANCE_RECORD')[1]?.fields.get('startDate')).toBe('2026-11-01');
    expect(api.callsOf('FARMER_COMPLIANCE_RECORD')[1]?.fields.get('endDate')).toBe('2026-11-30');
  });

  it('downloads the CSV, the canonical data whose SHA-256 the PDF prints', async () => {
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      saved.push(b);
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    const { user } = await openFarmerScreen('/dts/compliance', { FARMER_COMPLIANCE_RECORD: () => RECORD }, { ready: 'Cooling compliance' });
    await screen.findByRole('region', { name: 'Summary' });
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    const csv = await saved[0]?.text();
    expect(csv).toBe(buildComplianceCsv(RECORD));
    expect(csv?.split('\r\n').slice(6, 9)).toEqual([
      'Vat,Milking start,Milking end,Volume (L),Verdict,R1,R1 time,R2,R2 time,R3,R3 time,R4,R4 time,Peak after failure (°C),Exceptions',
      '1,02 Nov 2026 06:00,02 Nov 2026 08:00,6000,Compliant,Pass,02 Nov 2026 08:30,Pass,02 Nov 2026 09:00,Pass,02 Nov 2026 17:00,n/a,,,',
      '1,03 Nov 2026 06:00,03 Nov 2026 08:00,6100,Failed R1 R2,FAIL,03 Nov 2026 10:00,FAIL,03 Nov 2026 10:00,No data,,n/a,,12.5,Power cut (monitor on battery) 03 Nov 2026 07:00 to 03 Nov 2026 07:40 (40 min)',
    ]);
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
