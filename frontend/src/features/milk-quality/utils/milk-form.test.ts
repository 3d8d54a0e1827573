import { describe, expect, it } from 'vitest';
import { checkMilkForm } from './milk-form';

const filled = { supplyNumber: ' 50412 ', vatNumber: '2', fromDate: '2026-03-04', toDate: '2026-03-10' };

describe('the milk data form (operator §5)', () => {
  it('lists every empty field, and nothing else', () => {
    expect(checkMilkForm({ supplyNumber: ' ', vatNumber: '', fromDate: '2026-03-04', toDate: '' }, 'milkquality')).toEqual({ ok: false, missing: ['supplyNumber', 'vatNumber', 'toDate'] });
  });

  it('upper-cases and trims the supply number with the view’s prefix: FON for 5 characters, Westlands WES for 3', () => {
    expect(checkMilkForm(filled, 'milkquality')).toEqual({ ok: true, lookup: { supplyNumber: 'FON50412', vatNumber: 2, fromDate: '2026-03-04', toDate: '2026-03-10' } });
    expect(checkMilkForm({ ...filled, supplyNumber: 'fon50412' }, 'milkquality')).toMatchObject({ lookup: { supplyNumber: 'FON50412' } });
    expect(checkMilkForm({ ...filled, supplyNumber: ' 118' }, 'westlands')).toMatchObject({ lookup: { supplyNumber: 'WES118' } });
    expect(checkMilkForm({ ...filled, supplyNumber: '50412' }, 'westlands')).toMatchObject({ lookup: { supplyNumber: '50412' } });
  });

  it('refuses To before From and a range over 30 days before asking', () => {
    expect(checkMilkForm({ ...filled, toDate: '2026-03-03' }, 'milkquality')).toEqual({ ok: false, missing: [], message: 'To must not be before From.' });
    expect(checkMilkForm({ ...filled, toDate: '2026-04-04' }, 'milkquality')).toEqual({ ok: false, missing: [], message: 'The range may be at most 30 days.' });
    expect(checkMilkForm({ ...filled, toDate: '2026-04-03' }, 'milkquality').ok).toBe(true);
  });
});
