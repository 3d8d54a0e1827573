import { describe, expect, it } from 'vitest';
import { COMPLIANCE_RANGE_TOO_LONG, resolveCompliancePeriod, seasonOf } from './season';

const TZ = 'Pacific/Auckland';

describe('compliance period', () => {
  it('is the season of the farm-local today by default, 1 June to 31 May, clipped at now', () => {
    expect(seasonOf('2026-11-25')).toEqual({ startDate: '2026-06-01', endDate: '2027-05-31' });
    expect(seasonOf('2026-05-31')).toEqual({ startDate: '2025-06-01', endDate: '2026-05-31' });
    expect(seasonOf('2026-06-01')).toEqual({ startDate: '2026-06-01', endDate: '2027-05-31' });
    // 31 May 13:00 UTC is already 1 June in Auckland: the new season.
    const r = resolveCompliancePeriod({}, new Date('2026-05-31T13:00:00Z'), TZ);
    expect(r).toEqual({ ok: true, range: { from: '2026-05-31T12:00:00.000Z', to: '2026-05-31T13:00:00.000Z', startDate: '2026-06-01', endDate: '2027-05-31', page_index: null } });
  });

  it('takes farm-local dates and refuses half, reversed, too long or future periods', () => {
    const now = new Date('2026-11-25T00:00:00Z');
    const ok = resolveCompliancePeriod({ startDate: '2026-10-01', endDate: '2026-10-31' }, now, TZ);
    expect(ok.ok && ok.range.from).toBe('2026-09-30T11:00:00.000Z');
    expect(ok.ok && ok.range.to).toBe('2026-10-31T10:59:59.999Z');
    expect(resolveCompliancePeriod({ startDate: '2026-10-01' }, now, TZ)).toMatchObject({ ok: false });
    expect(resolveCompliancePeriod({ startDate: '2026-10-02', endDate: '2026-10-01' }, now, TZ)).toMatchObject({ ok: false });
    expect(resolveCompliancePeriod({ startDate: '2025-06-01', endDate: '2026-06-02' }, now, TZ)).toEqual({ ok: false, message: COMPLIANCE_RANGE_TOO_LONG });
    expect(resolveCompliancePeriod({ startDate: '2026-11-26', endDate: '2026-11-27' }, now, TZ)).toMatchObject({ ok: false, message: 'No more data!' });
  });
});
