import { describe, expect, it } from 'vitest';
import { buildDataCsv, csvDateTime } from './data-csv';

const iso = (s: string) => s;

describe('buildDataCsv (farmer §2.5 data.csv)', () => {
  it('merges cooler data by time, keeps only rows with a volume, oldest first', () => {
    const csv = buildDataCsv(
      [
        { published_at: '2026-03-10T02:00:00Z', milk_volume: 2000, temp1: 3.9, agitator_status: 0 },
        { published_at: '2026-03-10T01:00:00Z', milk_volume: 1000, temp1: 4.2, agitator_status: 1 },
        { published_at: '2026-03-10T01:30:00Z', milk_volume: null, temp1: 4.1 },
        { published_at: '2026-03-10T03:00:00Z', milk_volume: 0, temp1: null },
      ],
      [
        { published_at: '2026-03-10T01:00:00.000Z', milk_in: 30.5, water_in: 12 },
        { published_at: '2026-03-10T01:30:00Z', milk_in: 31, water_in: 13 },
      ],
      iso,
    );
    expect(csv.split('\r\n')).toEqual([
      'DateTime,Volume,Vat Temperature,Stirrer,milk_in,water_in',
      '2026-03-10T01:00:00Z,1000,4.2,1,30.5,12',
      '2026-03-10T02:00:00Z,2000,3.9,0,,',
      '2026-03-10T03:00:00Z,0,,,,',
      '',
    ]);
  });

  it('only the header when no reading has a volume', () => {
    expect(buildDataCsv([{ published_at: '2026-03-10T02:00:00Z', temp1: 3 }], [], iso)).toBe('DateTime,Volume,Vat Temperature,Stirrer,milk_in,water_in\r\n');
  });

  it('writes the time in local time as DD MMM YYYY HH:mm:ss', () => {
    const d = new Date(2026, 2, 5, 7, 8, 9);
    expect(csvDateTime(d.toISOString())).toBe('05 Mar 2026 07:08:09');
  });
});
