import { COLUMN_FIELDS, emptyColumns, type RangeColumns } from '@shared/telemetry/range-columns';
import type { VatLastAll, VatLastAllColumns } from '../features/milk-dashboard/api/dashboard-last-all';
import type { FakeHandler } from './fake-api';

/** A rows answer's vat in the columnar form (form=columns): its readings and cooler readings joined by time. */
export const columnsOfRows = ({ detailData, coolerData, ...rest }: VatLastAll): VatLastAllColumns => {
  const times = [...new Set([...detailData, ...coolerData].map((p) => Date.parse(p.published_at)))].sort((a, b) => a - b);
  const base = times[0] ?? Date.parse(rest.range.from);
  const columns: RangeColumns = emptyColumns(new Date(base).toISOString());
  for (const t of times) {
    const row = detailData.find((p) => Date.parse(p.published_at) === t) as Record<string, unknown> | undefined;
    const cooler = coolerData.find((p) => Date.parse(p.published_at) === t) as Record<string, unknown> | undefined;
    columns.t.push(t - base);
    for (const f of COLUMN_FIELDS) columns[f].push(((f === 'milk_in' || f === 'water_in' ? cooler?.[f] : row?.[f]) as number | null | undefined) ?? null);
  }
  return { ...rest, columns };
};

/** A FARMER_DASHBOARD_LAST_ALL fake written in rows that answers in the form asked for, as the server does. */
export const inFormAsked =
  (handler: FakeHandler): FakeHandler =>
  async (fields) => {
    const answer = await handler(fields);
    return fields.get('form') === 'columns' && Array.isArray(answer) ? (answer as VatLastAll[]).map(columnsOfRows) : answer;
  };
