import { describe, expect, it } from 'vitest';
import { emailBody, localHourMinute, smsText, SMS_SEGMENT } from './messages';

describe("the 'Cooling at risk' (105) text", () => {
  const facts = {
    type: 105 as const,
    farmName: 'Rolling Hills Dairy',
    vatNumber: 2,
    data: { published_at: '2026-06-02T01:05:00.000Z', temp1: 8.44, milk_volume: 4012, agitator_status: 1 as const },
    timezone: 'Pacific/Auckland',
    detail: '6C predicted 15:40, deadline 14:20',
  };

  it('carries the predicted time and the deadline, in one segment', () => {
    const text = smsText(facts);
    expect(text).toBe('Vat-Man Rolling Hills Dairy Vat 2: Cooling at risk, 6C predicted 15:40, deadline 14:20 (8.4C, 4010 L) at 13:05 Tue 2 Jun.');
    expect(text.length).toBeLessThanOrEqual(SMS_SEGMENT);
    expect(emailBody(facts)).toContain('Detail: 6C predicted 15:40, deadline 14:20');
  });

  it('other types keep their words without the detail', () => {
    expect(smsText({ ...facts, type: 102 })).toBe('Vat-Man Rolling Hills Dairy Vat 2: Milk over 6C (8.4C, 4010 L) at 13:05 Tue 2 Jun.');
  });

  it('reads the farm clock', () => {
    expect(localHourMinute('2026-06-02T01:05:00.000Z', 'Pacific/Auckland')).toBe('13:05');
    expect(localHourMinute('2026-06-02T01:05:00.000Z', 'UTC')).toBe('01:05');
  });
});

describe('the alert email (plain text through SNS)', () => {
  it('carries a farm name with & and < as written: SNS mails text, where an HTML escape would show as &amp;', () => {
    const body = emailBody({ type: 102, farmName: 'Smith & Sons <North>', vatNumber: 1, data: { published_at: '2026-06-02T01:05:00.000Z', temp1: 7, milk_volume: null, agitator_status: null }, timezone: 'UTC' });
    expect(body.split('\n')[0]).toBe('Milk over 6C on Smith & Sons <North>, Vat 1.');
  });
});
