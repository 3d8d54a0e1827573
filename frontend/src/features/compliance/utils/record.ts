import type { ComplianceMilking, ComplianceRecord, ExceptionKind, MilkingVerdict } from '@shared/api/actions/farmer-compliance';
import type { RuleStatus } from '@shared/compliance/cooling-rules';
import { csvCell } from '@shared/text/csv';
import { formatCsvWhen, formatDay } from '../../../lib/time-format';

/**
 * The cooling compliance record's words and its canonical data. The page, the CSV and
 * the PDF all read the record through these, so they say the same thing.
 */
const VERDICT_TEXT: Readonly<Record<MilkingVerdict, string>> = { compliant: 'Compliant', failed: 'Failed', undecided: 'Not decided' };
export const STATUS_TEXT: Readonly<Record<RuleStatus, string>> = { passed: 'Pass', failed: 'FAIL', pending: 'Pending', no_data: 'No data', not_applicable: 'n/a' };
const EXCEPTION_TEXT: Readonly<Record<ExceptionKind, string>> = {
  battery_off: 'Power cut (monitor on battery)',
  agitator_stop: 'Agitator stopped',
  outage: 'Data outage (no readings)',
};

/** 'Failed R2 R3', 'Compliant' or 'Not decided': a milking's verdict with the rules that failed. */
export const verdictText = (m: ComplianceMilking): string =>
  m.verdict === 'failed'
    ? `${VERDICT_TEXT.failed} ${m.rules
        .filter((r) => r.status === 'failed')
        .map((r) => r.rule)
        .join(' ')}`
    : VERDICT_TEXT[m.verdict];

/** When a rule was met or broken, on the farm's clock (CSV form, no zone name: the record names its zone once). */
export const ruleTime = (r: ComplianceMilking['rules'][number], timeZone: string): string => {
  const at = r.status === 'passed' ? r.met_at : r.status === 'failed' ? r.failed_at : null;
  return at ? formatCsvWhen(at, timeZone) : '';
};

const minutes = (from: string, to: string | null) => (to ? Math.round((Date.parse(to) - Date.parse(from)) / 60_000) : null);

/** 'Power cut (monitor on battery) 12 Nov 2026 09:00 to 12 Nov 2026 09:40 (40 min)'. */
export const exceptionText = (e: ComplianceMilking['exceptions'][number], timeZone: string): string => {
  const length = minutes(e.start, e.end);
  return `${EXCEPTION_TEXT[e.kind]} ${formatCsvWhen(e.start, timeZone)} to ${e.end ? formatCsvWhen(e.end, timeZone) : 'still going'}${length === null ? '' : ` (${length} min)`}`;
};

export interface ComplianceSummary {
  readonly milkings: number;
  readonly compliant: number;
  readonly failed: number;
  readonly undecided: number;
  /** Compliant milkings as a share of all of them, one decimal; null without milkings. */
  readonly percent: number | null;
  /** The failed milkings, warmest peak after the failure first (at most 5). */
  readonly worst: readonly ComplianceMilking[];
}

export const allMilkings = (record: ComplianceRecord): ComplianceMilking[] => record.vats.flatMap((v) => v.milkings);

export const summaryOf = (record: ComplianceRecord): ComplianceSummary => {
  const all = allMilkings(record);
  const count = (v: MilkingVerdict) => all.filter((m) => m.verdict === v).length;
  const compliant = count('compliant');
  return {
    milkings: all.length,
    compliant,
    failed: count('failed'),
    undecided: count('undecided'),
    percent: all.length ? Math.round((compliant / all.length) * 1000) / 10 : null,
    worst: all
      .filter((m) => m.verdict === 'failed')
      .sort((a, b) => (b.peak_c ?? -Infinity) - (a.peak_c ?? -Infinity) || a.start.localeCompare(b.start))
      .slice(0, 5),
  };
};

export const periodText = (record: ComplianceRecord): string => `${formatDay(record.period.startDate)} to ${formatDay(record.period.endDate)}`;

const CSV_COLUMNS = ['Vat', 'Milking start', 'Milking end', 'Volume (L)', 'Verdict', 'R1', 'R1 time', 'R2', 'R2 time', 'R3', 'R3 time', 'R4', 'R4 time', 'Peak after failure (°C)', 'Exceptions'] as const;

/**
 * The canonical data: the CSV the page offers, byte for byte what the PDF's SHA-256 is of. A few
 * lines naming the farm, supply number, period and zone, then one row per milking, vat by vat in
 * time order. The generation time is not in it, so the same period of the same data gives the
 * same file and the same hash whenever it is made.
 */
export const buildComplianceCsv = (record: ComplianceRecord): string => {
  const tz = record.farm.timezone;
  const lines: (string | number | null)[][] = [
    ['Cooling compliance record'],
    ['Farm', record.farm.name],
    ['Supply number', record.farm.supply_number],
    ['Period', record.period.startDate, record.period.endDate],
    ['Times in', tz],
    [],
    [...CSV_COLUMNS],
    ...allMilkings(record).map((m) => [
      m.vat_number,
      formatCsvWhen(m.start, tz),
      m.end ? formatCsvWhen(m.end, tz) : '',
      m.volume === null ? null : Math.round(m.volume),
      verdictText(m),
      ...m.rules.flatMap((r) => [STATUS_TEXT[r.status], ruleTime(r, tz)]),
      m.peak_c === null ? null : Math.round(m.peak_c * 10) / 10,
      m.exceptions.map((e) => exceptionText(e, tz)).join('; '),
    ]),
  ];
  return `${lines.map((l) => l.map(csvCell).join(',')).join('\r\n')}\r\n`;
};

/** SHA-256 of the text's UTF-8 bytes, as lowercase hex (what `sha256sum` prints). */
export const sha256Hex = async (text: string): Promise<string> => {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
};

export const complianceFileName = (record: ComplianceRecord, ext: 'csv' | 'pdf'): string =>
  `cooling-compliance-${record.farm.supply_number.replace(/[^\w-]/g, '')}-${record.period.startDate}-to-${record.period.endDate}.${ext}`;
