import { describe, expect, it } from 'vitest';
import { buildMilkCsv, csvCell, milkCsvName } from './milk-csv';

describe('milk quality CSV (operator §9)', () => {
  it("has the spec's columns, oldest first, times in the farm's zone", () => {
    const csv = buildMilkCsv({
      farm: { _id: 'f', fonterra_id: 'FON50412', timezone: 'Pacific/Auckland' },
      detailData: [
        { published_at: '2026-03-10T02:00:00.000Z', milk_volume: 1500, temp1: 3.5, temp2: 14, agitator_status: 0, state_machine: 'storage', quality: { currentEstCFU: 4.9 } },
        { published_at: '2026-03-10T01:00:00.000Z', milk_volume: 1000, temp1: 4, temp2: 15, agitator_status: 1, state_machine: 'milking', quality: { currentEstCFU: 4.1, pickupEstCFU: 4.4 } },
      ],
    });
    expect(csv.split('\r\n')).toEqual([
      'DateTime,Volume,Vat Temperature,Inlet Temperature,Stirrer,currentEstCFU,pickupEstCFU,phystate',
      '10 Mar 2026 14:00:00,1000,4,15,1,4.1,4.4,milking',
      '10 Mar 2026 15:00:00,1500,3.5,14,0,4.9,,storage',
      '',
    ]);
  });

  it('neutralises text a spreadsheet would run as a formula, and quotes what needs it; numbers stay numbers', () => {
    expect(['=SUM(A1)', '+1', '-2+3', '@cmd', '\tx', 'a,b', 'say "hi"'].map(csvCell)).toEqual(["'=SUM(A1)", "'+1", "'-2+3", "'@cmd", "'\tx", '"a,b"', '"say ""hi"""']);
    expect([-1.5, 0, null, undefined, Number.NaN].map(csvCell)).toEqual(['-1.5', '0', '', '', '']);
  });

  it('names the file by farm, vat and days', () => {
    expect(milkCsvName({ farm: { _id: 'f', fonterra_id: 'FON50412', timezone: 'UTC' }, device: { _id: 'd', name: 'n', vat_number: 2, vat_size: 1, vat_auto: false, last_updated: null }, range: { from: '', to: '', startDate: '2026-03-04', endDate: '2026-03-10', page_index: null } })).toBe(
      'FON50412-vat2-2026-03-04-2026-03-10.csv',
    );
  });
});
