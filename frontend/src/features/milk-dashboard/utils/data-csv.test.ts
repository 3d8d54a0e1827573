import { describe, expect, it } from 'vitest';
import { buildDataCsv } from './data-csv';

const AKL = 'Pacific/Auckland';

describe('buildDataCsv (farmer §2.5 data.csv)', () => {
  it("merges cooler data by time, keeps only rows with a volume, oldest first, in the farm's 'DD MMM YYYY HH:mm'", () => {
    const csv = buildDataCsv(
      [
        { published_at: '2026-03-10T02:00:00Z', milk_volume: 2000, temp1: 3.9, agitator_status: 0 },
        { published_at: '2026-03-10T01:00:00Z', milk_volume: 1000, temp1: 4.2, agitator_status: 1 },
        { published_at: '2026-03-10T01:30:00Z', milk_volume: null, temp1: 4.1 },
        { published_at: '2026-03-10T03:00:59Z', milk_volume: 0, temp1: null },
      ],
      [
        { published_at: '2026-03-10T01:00:00.000Z', milk_in: 30.5, water_in: 12 },
        { published_at: '2026-03-10T01:30:00Z', milk_in: 31, water_in: 13 },
      ],
      AKL,
    );
    // 01:00 UTC on 10 March is 14:00 NZDT; the seconds are not written (§9's display format).
    expect(csv.split('\r\n')).toEqual([
      'DateTime,Volume,Vat Temperature,Stirrer,milk_in,water_in',
      '10 Mar 2026 14:00,1000,4.2,1,30.5,12.0',
      '10 Mar 2026 15:00,2000,3.9,0,,',
      '10 Mar 2026 16:00,0,,,,',
      '',
    ]);
  });

  it('rounds as §9: volume to the nearest 10 L, temperatures to 1 decimal', () => {
    const csv = buildDataCsv([{ published_at: '2026-03-10T01:00:00Z', milk_volume: 1234.6, temp1: 4.26, agitator_status: 1 }], [{ published_at: '2026-03-10T01:00:00Z', milk_in: 30.55, water_in: 11.94 }], 'Europe/London');
    expect(csv.split('\r\n')[1]).toBe('10 Mar 2026 01:00,1230,4.3,1,30.6,11.9');
  });

  it('only the header when no reading has a volume', () => {
    expect(buildDataCsv([{ published_at: '2026-03-10T02:00:00Z', temp1: 3 }], [], AKL)).toBe('DateTime,Volume,Vat Temperature,Stirrer,milk_in,water_in\r\n');
  });
});
