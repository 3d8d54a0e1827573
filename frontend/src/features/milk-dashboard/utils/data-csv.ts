import type { DetailPoint } from '@shared/api/actions/farmer-activity';

export const DATA_CSV_NAME = 'data.csv';
export const DATA_CSV_COLUMNS = ['DateTime', 'Volume', 'Vat Temperature', 'Stirrer', 'milk_in', 'water_in'] as const;

interface CoolerPoint {
  readonly published_at: string;
  readonly milk_in: number | null;
  readonly water_in: number | null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** §9 display format 'DD MMM YYYY HH:mm' in local time, with seconds so readings a minute apart stay apart. */
export const csvDateTime = (iso: string): string => {
  const d = new Date(iso);
  return `${two(d.getDate())} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

const cell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * data.csv of the milk dashboard (farmer §2.5): the readings and the cooler data merged by the raw
 * message they came from (the same instant), only readings with a milk volume, oldest first. Values
 * are as stored (no display rounding): this is data for a spreadsheet. Stirrer is agitator_status
 * (1 on, 0 off, empty when the device did not say).
 */
export const buildDataCsv = (
  detailData: readonly DetailPoint[],
  coolerData: readonly CoolerPoint[],
  formatTime: (iso: string) => string = csvDateTime,
): string => {
  const cooler = new Map<number, CoolerPoint>();
  for (const c of coolerData) cooler.set(Date.parse(c.published_at), c);
  const rows = detailData
    .filter((p) => p.milk_volume !== null && p.milk_volume !== undefined && Number.isFinite(p.milk_volume))
    .map((p) => ({ p, t: Date.parse(p.published_at) }))
    .sort((a, b) => a.t - b.t)
    .map(({ p, t }) => {
      const c = cooler.get(t);
      return [formatTime(p.published_at), p.milk_volume, p.temp1, p.agitator_status, c?.milk_in, c?.water_in].map(cell).join(',');
    });
  return `${[DATA_CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
};
