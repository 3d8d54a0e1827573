import { describe, expect, it } from 'vitest';
import { localDayOf, localMidnight } from '../time/local-day';
import { NO_MORE_DATA, RANGE_HALF, RANGE_PRO_ONLY, RANGE_REVERSED, RANGE_TOO_LONG, resolveRange } from './range';

const AKL = 'Pacific/Auckland';
/** 2026-11-22 10:00 in Auckland (NZDT, UTC+13). */
const now = new Date('2026-11-21T21:00:00.000Z');
const ctx = { now, timeZone: AKL, datesAllowed: true };

describe('local days', () => {
  it('map to UTC through the zone, daylight saving included', () => {
    expect(new Date(localMidnight('2026-11-22', AKL)).toISOString()).toBe('2026-11-21T11:00:00.000Z');
    expect(new Date(localMidnight('2026-06-22', AKL)).toISOString()).toBe('2026-06-21T12:00:00.000Z');
    // NZ daylight saving starts 2026-09-27 at 02:00: that day is 23 hours long.
    expect(localMidnight('2026-09-28', AKL) - localMidnight('2026-09-27', AKL)).toBe(23 * 3_600_000);
    expect(localDayOf(now.getTime(), AKL)).toBe('2026-11-22');
    expect(new Date(localMidnight('2026-11-22', 'UTC')).toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });
});

describe('resolveRange', () => {
  it('maps startDate..endDate to local midnight .. end of the last local day, clipped at now', () => {
    expect(resolveRange({ startDate: '2026-11-01', endDate: '2026-11-03' }, ctx)).toEqual({
      ok: true,
      range: { from: '2026-10-31T11:00:00.000Z', to: '2026-11-03T10:59:59.999Z', startDate: '2026-11-01', endDate: '2026-11-03', page_index: null },
    });
    const today = resolveRange({ startDate: '2026-11-20', endDate: '2026-11-22' }, ctx);
    expect(today.ok && today.range.to).toBe(now.toISOString());
  });

  it('allows the end 30 days after the start, not 31', () => {
    expect(resolveRange({ startDate: '2026-10-23', endDate: '2026-11-22' }, ctx).ok).toBe(true);
    expect(resolveRange({ startDate: '2026-10-22', endDate: '2026-11-22' }, ctx)).toEqual({ ok: false, message: RANGE_TOO_LONG });
  });

  it('refuses a reversed range, one date alone, the future (local today is the last day) and dates on Lite', () => {
    expect(resolveRange({ startDate: '2026-11-03', endDate: '2026-11-01' }, ctx)).toEqual({ ok: false, message: RANGE_REVERSED });
    // A caller whose fields have other names gets them in its messages (MILK_QUALITY_DATA).
    const fields = { start: 'fromDate', end: 'toDate' };
    expect(resolveRange({ startDate: '2026-11-03', endDate: '2026-11-01' }, { ...ctx, fields })).toEqual({ ok: false, message: 'toDate must not be before fromDate.' });
    expect(resolveRange({ startDate: '2026-11-03' }, { ...ctx, fields })).toEqual({ ok: false, message: 'Send fromDate and toDate together.' });
    expect(resolveRange({ endDate: '2026-11-01' }, ctx)).toEqual({ ok: false, message: RANGE_HALF });
    expect(resolveRange({ startDate: '2026-11-21', endDate: '2026-11-23' }, ctx)).toEqual({ ok: false, message: NO_MORE_DATA });
    // 22 Nov is already today in Auckland while it is still 21 Nov in UTC.
    expect(resolveRange({ startDate: '2026-11-22', endDate: '2026-11-22' }, ctx).ok).toBe(true);
    expect(resolveRange({ startDate: '2026-11-01', endDate: '2026-11-03' }, { ...ctx, datesAllowed: false })).toEqual({ ok: false, message: RANGE_PRO_ONLY });
  });

  it('pages back by 2 days from now; page 1 is the default, page 0 is past the present', () => {
    const page = (p?: number) => resolveRange({ page_index: p }, ctx);
    expect(page()).toEqual(page(1));
    expect(page(1)).toMatchObject({ ok: true, range: { from: '2026-11-19T21:00:00.000Z', to: '2026-11-21T21:00:00.000Z', page_index: 1 } });
    expect(page(3)).toMatchObject({ ok: true, range: { from: '2026-11-15T21:00:00.000Z', to: '2026-11-17T21:00:00.000Z', startDate: '2026-11-16', endDate: '2026-11-18' } });
    expect(page(0)).toEqual({ ok: false, message: NO_MORE_DATA });
  });
});
