import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildComplianceCsv, sha256Hex, verdictText } from '../../frontend/src/features/compliance/utils/record';
import { buildCompliancePdf } from '../../frontend/src/features/compliance/utils/record-pdf';
import { formatCsvWhen } from '../../frontend/src/lib/time-format';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import type { ComplianceRecord } from '../../shared/api/actions/farmer-compliance';
import type { RuleResult } from '../../shared/compliance/cooling-rules';
import type { Activity } from '../../shared/telemetry/activities';
import { detectAll, initialDetectorState } from '../../shared/telemetry/detect';
import { DAY, trace, TRACE_VAT } from '../../shared/telemetry/testing/trace';
import { localDayOf } from '../../shared/time/local-day';
import { dayOf } from '../../shared/time/utc';
import { startTestStack } from '../support/local-stack';

/**
 * The cooling compliance record of a simulated month, rendered as the page
 * renders it (the web app's own CSV and pdf-lib builders), opens with pdftoppm (its first page
 * becomes a PNG), lists every milking (pdftotext), and its failures are the milking tab's verdicts
 * (FARMER_MILKING_ONE for each milking). The month is the detector test trace (a collection, a wash
 * and two milkings a day), one reading every 2 minutes, with slow cooling on some mornings, an
 * outage over a deadline, a power cut and an agitator stop, stored as the ingest stores it.
 */
const hasPoppler = spawnSync('pdftoppm', ['-v']).error === undefined;
if (!hasPoppler && process.env.CI) throw new Error('pdftoppm is missing in CI: .ci/run installs poppler-utils');
if (!hasPoppler) console.warn('compliance-pdf.test.ts skipped: pdftoppm is not installed (apt-get install -y poppler-utils)');

const MIN = 60_000;
const DAY_MS = 1_440 * MIN;
const DAYS = 30;
const START = Math.floor((Date.now() - 33 * DAY_MS) / DAY_MS) * DAY_MS;
const DEVICE = 'dev-ocd40721-1';
const TZ = 'Pacific/Auckland';
/** Mornings whose milk stays warm for 6 hours after the milking (R1, R2 and R3 fail). */
const SLOW_DAYS = new Set([3, 11, 19]);
/** Minute of the month where things go wrong. */
const m = (day: number, minute: number) => day * DAY.minutes + minute;

let stack: Awaited<ReturnType<typeof startTestStack>>;
let readings: ReadingsRepository;
let farmer: string;
/** The first case's record, for the second. */
let monthRecord: ComplianceRecord | undefined;

const seedMonth = async () => {
  const all = trace({
    days: DAYS,
    start: new Date(START).toISOString(),
    // Day 7: no readings from an hour before the morning milking's 4 h deadline to after its 6 h one.
    outages: [[m(7, DAY.morningMilking.som + 180), m(7, DAY.morningMilking.som + 400)]],
    batteryOff: [[m(14, 600), m(14, 660)]],
    agitatorStops: [[m(21, 480), m(21, 540)]],
    map: (r, minute) => {
      const day = Math.floor(minute / DAY.minutes);
      const dm = minute % DAY.minutes;
      if (SLOW_DAYS.has(day) && dm >= DAY.morningMilking.end && dm < DAY.morningMilking.end + 360) return { ...r, temp1: 12.5 };
      // The afternoon's milk goes onto the morning's cold milk: the vat stays cold at its start and under 10 °C through it.
      const { som } = DAY.afternoonMilking;
      if (dm >= som && dm < som + 5) return { ...r, temp1: 4 };
      if (dm >= som + 5 && dm < som + 200 && r.temp1 !== null) return { ...r, temp1: Math.min(7.5, r.temp1) };
      return r;
    },
  }).filter((r) => Math.floor(Date.parse(r.published_at) / MIN) % 2 === 0);
  const { changed } = detectAll(initialDetectorState(), all, TRACE_VAT);
  const last = new Map<string, Activity>();
  for (const a of changed) last.set(`${a.kind}|${a.start.published_at}`, a);
  await readings.writeReadings(all.map((reading) => ({ deviceId: DEVICE, reading, raw: '{}' })));
  const days = [...new Set(all.map((r) => dayOf(r.published_at)))];
  for (const day of days) await readings.compactDay(DEVICE, day);
  for (const a of last.values()) await readings.putActivity({ ...a, device_id: DEVICE, farm_id: 'farm-lite' }, 1);
};

beforeAll(async () => {
  if (!hasPoppler) return;
  stack = await startTestStack(undefined, undefined, { dairySync: false });
  readings = dynamoReadingsRepository(createDocumentClient(), stack.facts.dynamodb.readingsTable);
  farmer = await stack.signIn('farmer@vatman.local');
  await seedMonth();
}, 300_000);
afterAll(async () => stack?.stop());

describe.skipIf(!hasPoppler)('the cooling compliance record of a simulated month', () => {
  it("renders a PDF that pdftoppm opens, listing every milking with the milking tab's verdicts", async () => {
    // Whole farm-local days inside the month.
    const startDate = localDayOf(START + DAY_MS, TZ);
    const endDate = localDayOf(START + (DAYS - 1) * DAY_MS, TZ);
    const res = await stack.post('/api/farmer/activity', { type: 'FARMER_COMPLIANCE_RECORD', farm: 'farm-lite', startDate, endDate }, farmer);
    expect(res.status).toBe(200);
    const record = res.body as ComplianceRecord;
    monthRecord = record;
    const milkings = record.vats.flatMap((v) => v.milkings);
    // Two milkings a day over the 28 or so days of the period.
    expect(milkings.length).toBeGreaterThanOrEqual(54);
    expect(record.farm).toMatchObject({ supply_number: 'OCD40721', timezone: TZ });

    // The milking tab's verdict of every milking is the record's.
    for (const mk of milkings) {
      const one = await stack.post('/api/farmer/activity', { type: 'FARMER_MILKING_ONE', activity_id: mk._id }, farmer);
      expect(one.status).toBe(200);
      const page = (one.body as { compliance: RuleResult[] }).compliance;
      expect(mk.rules.map((r) => [r.rule, r.status, r.met_at, r.failed_at]), mk._id).toEqual(page.map((r) => [r.rule, r.status, r.met_at, r.failed_at]));
    }
    const failed = milkings.filter((x) => x.verdict === 'failed');
    const slowStarts = [...SLOW_DAYS].map((d) => new Date(START + d * DAY_MS + DAY.morningMilking.som * MIN).toISOString());
    // The slow mornings fail R1, R2 and R3 (and only they fail); the outage leaves its morning undecided, never passed.
    expect(failed.map((x) => x.start).sort()).toEqual(slowStarts.filter((s) => milkings.some((x) => x.start === s)));
    for (const f of failed) expect(f.rules.filter((r) => r.status === 'failed').map((r) => r.rule)).toEqual(['R1', 'R2', 'R3']);
    const outageMorning = milkings.find((x) => x.start === new Date(START + 7 * DAY_MS + DAY.morningMilking.som * MIN).toISOString());
    expect(outageMorning).toMatchObject({ verdict: 'undecided', exceptions: [expect.objectContaining({ kind: 'outage' })] });
    expect(milkings.some((x) => x.exceptions.some((e) => e.kind === 'battery_off'))).toBe(true);
    expect(milkings.some((x) => x.exceptions.some((e) => e.kind === 'agitator_stop'))).toBe(true);
    expect(failed.every((x) => x.curve.length > 20)).toBe(true);

    // The PDF, as the page makes it.
    const csv = buildComplianceCsv(record);
    const hash = await sha256Hex(csv);
    expect(hash).toBe(createHash('sha256').update(csv, 'utf8').digest('hex'));
    const dir = mkdtempSync(join(tmpdir(), 'vatman-compliance-'));
    const pdf = join(dir, 'record.pdf');
    writeFileSync(pdf, await buildCompliancePdf(record, hash));

    // pdftoppm renders the first page.
    execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '50', '-png', pdf, join(dir, 'page')]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'));
    expect(png).toBeDefined();
    expect(statSync(join(dir, png as string)).size).toBeGreaterThan(5_000);

    // Its text: the farm, the period, the rules, the hash, and every milking's row with its verdict.
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('Supply number: OCD40721');
    for (const r of record.rules) expect(text).toContain(r.text);
    expect(text).toContain(`SHA-256: ${hash}`);
    expect(text).toContain(`Milkings: ${milkings.length}.`);
    const lines = text.split('\n');
    for (const mk of milkings) {
      const row = lines.find((l) => l.trimStart().startsWith(formatCsvWhen(mk.start, TZ)));
      expect(row, `no row for the milking of ${mk.start}`).toBeDefined();
      expect(row?.trimEnd().endsWith(verdictText(mk)), `${row}`).toBe(true);
    }
    expect(lines.filter((l) => /Failed R1 R2 R3\s*$/.test(l) && /^\s*\d{2} \w{3} \d{4}/.test(l))).toHaveLength(failed.length);

    // An assessor's check: the attached CSV's SHA-256 is the printed one.
    execFileSync('pdfdetach', ['-saveall', '-o', dir, pdf]);
    const attached = readdirSync(dir).find((f) => f.endsWith('.csv'));
    expect(createHash('sha256').update(readFileSync(join(dir, attached as string))).digest('hex')).toBe(hash);
    // Nothing here needs more than Helvetica: no font is embedded.
    expect(execFileSync('pdffonts', [pdf], { encoding: 'utf8' })).not.toMatch(/VatManPDFSans/);
  }, 240_000);

  it('keeps the macrons of a farm named in te reo (the embedded Unicode font), and the hash still matches', async () => {
    expect(monthRecord).toBeDefined();
    const record = { ...(monthRecord as ComplianceRecord), farm: { ...(monthRecord as ComplianceRecord).farm, name: 'Ōtāhuhu Dairy — Māui’s vat' } };
    const csv = buildComplianceCsv(record);
    const hash = await sha256Hex(csv);
    const dir = mkdtempSync(join(tmpdir(), 'vatman-compliance-'));
    const pdf = join(dir, 'record.pdf');
    writeFileSync(pdf, await buildCompliancePdf(record, hash));
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('Farm: Ōtāhuhu Dairy — Māui’s vat');
    expect(text).toContain(`SHA-256: ${hash}`);
    for (const r of record.rules) expect(text).toContain(r.text);
    // The font is embedded (pdf-lib cuts it to the glyphs used), with a Unicode map for copying text.
    expect(execFileSync('pdffonts', [pdf], { encoding: 'utf8' })).toMatch(/^VatManPDFSans-Regular\S*\s+CID TrueType\s+Identity-H\s+yes\s+\w+\s+yes/m);
    expect(statSync(pdf).size).toBeLessThan(600_000);
    execFileSync('pdfdetach', ['-saveall', '-o', dir, pdf]);
    const attached = readdirSync(dir).find((f) => f.endsWith('.csv'));
    expect(createHash('sha256').update(readFileSync(join(dir, attached as string))).digest('hex')).toBe(hash);
  }, 120_000);
});
