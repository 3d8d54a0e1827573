import type { MilkData } from '@shared/api/actions/milk-quality';
import { csvCell } from '@shared/text/csv';
import { formatCsvWhen } from '../../../lib/time-format';

/** One cell: shared/text/csv.ts (shared with the compliance record's CSV and the billing file). */
export { csvCell };

/** operator §9 'Milk quality CSV exports: date/time, volume, vat temperature, inlet temperature, stirrer, quality estimates, phystate'. */
const MILK_CSV_COLUMNS = ['DateTime', 'Volume', 'Vat Temperature', 'Inlet Temperature', 'Stirrer', 'currentEstCFU', 'pickupEstCFU', 'phystate'] as const;

/** 'DD MMM YYYY HH:mm:ss' in the farm's zone: the file says the farm's time wherever it is opened. */
const csvDateTime = (iso: string, timeZone: string): string => formatCsvWhen(iso, timeZone, true);

const numberIn = (record: unknown, key: string): number | undefined => {
  if (record === null || typeof record !== 'object') return undefined;
  const v = (record as Record<string, unknown>)[key];
  return typeof v === 'number' ? v : undefined;
};

/**
 * The vat's readings of the range, oldest first, in the spec's columns. Values as stored (no
 * display rounding): this is data for a spreadsheet. Stirrer is agitator_status (1 on, 0 off).
 */
export const buildMilkCsv = (data: Pick<MilkData, 'detailData' | 'farm'>): string => {
  const rows = [...data.detailData]
    .sort((a, b) => a.published_at.localeCompare(b.published_at))
    .map((p) =>
      [
        csvDateTime(p.published_at, data.farm.timezone),
        p.milk_volume,
        p.temp1,
        p.temp2,
        p.agitator_status,
        numberIn(p.quality, 'currentEstCFU'),
        numberIn(p.quality, 'pickupEstCFU'),
        p.state_machine,
      ]
        .map(csvCell)
        .join(','),
    );
  return `${[MILK_CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
};

/** The download's name: which farm, vat and days it holds. */
export const milkCsvName = (data: Pick<MilkData, 'farm' | 'device' | 'range'>): string =>
  `${data.farm.fonterra_id}-vat${data.device.vat_number}-${data.range.startDate}-${data.range.endDate}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
