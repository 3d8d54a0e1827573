import type { DetailPoint } from '@shared/api/actions/farmer-activity';
import { formatCsvWhen } from '../../../lib/time-format';

export const DATA_CSV_NAME = 'data.csv';
const DATA_CSV_COLUMNS = ['DateTime', 'Volume', 'Vat Temperature', 'Stirrer', 'milk_in', 'water_in'] as const;

interface CoolerPoint {
  readonly published_at: string;
  readonly milk_in: number | null;
  readonly water_in: number | null;
}

const present = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);
/** §9: volume to the nearest 10 L, temperature to 1 decimal. */
const litres = (v: number | null | undefined) => (present(v) ? Math.round(v / 10) * 10 : undefined);
const degrees = (v: number | null | undefined) => (present(v) ? (Math.round(v * 10) / 10).toFixed(1) : undefined);

const cell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * data.csv of the milk dashboard (farmer §2.5): the readings and the cooler data merged by the raw
 * message they came from (the same instant), only readings with a milk volume, oldest first.
 * DateTime is §9's 'DD MMM YYYY HH:mm' on the farm's clock; volume is rounded to the nearest 10 L
 * and temperatures to 1 decimal as §9 says for every value shown. Stirrer is agitator_status
 * (1 on, 0 off, empty when the device did not say).
 */
export const buildDataCsv = (detailData: readonly DetailPoint[], coolerData: readonly CoolerPoint[], timeZone: string | undefined): string => {
  const cooler = new Map<number, CoolerPoint>();
  for (const c of coolerData) cooler.set(Date.parse(c.published_at), c);
  const rows = detailData
    .filter((p) => p.milk_volume !== null && p.milk_volume !== undefined && Number.isFinite(p.milk_volume))
    .map((p) => ({ p, t: Date.parse(p.published_at) }))
    .sort((a, b) => a.t - b.t)
    .map(({ p, t }) => {
      const c = cooler.get(t);
      return [formatCsvWhen(p.published_at, timeZone), litres(p.milk_volume), degrees(p.temp1), p.agitator_status, degrees(c?.milk_in), degrees(c?.water_in)].map(cell).join(',');
    });
  return `${[DATA_CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
};
