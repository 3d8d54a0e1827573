import { describe, expect, it } from 'vitest';
import { capacitiesOf, HEIGHT_TABLE, heightOf, isTableVat, vatLabel, volumeOfLabel } from './height-table';

/** The installer's vat table (operator §5, §9). */
describe('height table', () => {
  it('holds the 19 rows of §9, with the two 18000 L rows of diameter 2875 told apart by Sidewall', () => {
    expect(HEIGHT_TABLE).toHaveLength(19);
    expect(heightOf(2875, '18000')).toBe(3000);
    expect(heightOf(2875, '18000 Sidewall')).toBe(2750);
    expect(heightOf(2337, '14000 Sidewall')).toBe(3500);
    expect(heightOf(2337, '14000')).toBeUndefined();
    expect(heightOf(2875, '30000 Sidewall')).toBe(4719);
    expect(capacitiesOf(2875, 'new').map(vatLabel)).toEqual(['11500', '14000', '16000', '18000', '18000 Sidewall', '21500 Sidewall', '24000 Sidewall', '26000 Sidewall', '30000 Sidewall']);
  });

  it('offers 6800 L on New Install only', () => {
    expect(capacitiesOf(2337, 'new').map(vatLabel)).toContain('6800');
    expect(capacitiesOf(2337, 'config').map(vatLabel)).not.toContain('6800');
    expect(capacitiesOf(2337, 'config')).toHaveLength(9);
  });

  it('sends the volume without the Sidewall suffix and knows a table vat from a manual one', () => {
    expect(volumeOfLabel('21500 Sidewall')).toBe(21500);
    expect(volumeOfLabel('9100')).toBe(9100);
    expect(isTableVat(2875, 18000, 2750)).toBe(true);
    expect(isTableVat(2875, 18000, 2800)).toBe(false);
  });
});
