import { describe, expect, it } from 'vitest';
import { parsePickerDay as parseDayText, pickerDayText as dayText } from '../../../lib/time-format';
import { checkDays, defaultDays } from './date-range';

describe('parseDayText / dayText (DD/MM/YYYY)', () => {
  it('reads a calendar day and writes it back', () => {
    expect(parseDayText('05/03/2026')).toBe('2026-03-05');
    expect(parseDayText('5/3/2026')).toBe('2026-03-05');
    expect(dayText('2026-03-05')).toBe('05/03/2026');
  });
  it.each(['31/02/2026', '2026-03-05', '', '12/13/2026'])('%s is not a day', (text) => {
    expect(parseDayText(text)).toBeUndefined();
  });
});

describe('checkDays', () => {
  const today = '2026-03-10';
  it('the default is yesterday to today', () => {
    expect(defaultDays(today)).toEqual({ startDate: '2026-03-09', endDate: '2026-03-10' });
  });
  it('accepts a range up to 30 days ending today', () => {
    expect(checkDays('08/02/2026', '10/03/2026', today)).toEqual({ ok: true, startDate: '2026-02-08', endDate: '2026-03-10' });
  });
  it.each([
    ['x', '10/03/2026', 'From must be a date as DD/MM/YYYY.'],
    ['01/03/2026', 'y', 'To must be a date as DD/MM/YYYY.'],
    ['05/03/2026', '04/03/2026', 'To must not be before From.'],
    ['07/02/2026', '10/03/2026', 'The range may be at most 30 days.'],
    ['10/03/2026', '11/03/2026', 'No more data!'],
  ])('%s to %s: %s', (from, to, message) => {
    expect(checkDays(from, to, today)).toEqual({ ok: false, message });
  });
});
