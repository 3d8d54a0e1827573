import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ComplianceMilking, ComplianceRecord } from '@shared/api/actions/farmer-compliance';
import { formatCsvWhen, formatWhen } from '../../../lib/time-format';
import { GREY, MARGIN, PdfWriter, RED, INK } from './pdf-writer';
import { allMilkings, buildComplianceCsv, complianceFileName, exceptionText, periodText, ruleTime, STATUS_TEXT, summaryOf, verdictText } from './record';
import { drawFailedMilkingChart } from './record-pdf-chart';

/**
 * The cooling compliance record as a PDF, built in the browser with pdf-lib (this module
 * is loaded only when the farmer asks for the PDF). A4, the standard Helvetica (no font files)
 * unless the record's text needs more than it can write (macrons: `pdf-fonts.ts`, loaded then):
 * page 1 states the farm, supply number, period, the rules as written, when it was generated, the
 * SHA-256 of the canonical CSV (attached to the PDF) and the summary; then every milking per vat;
 * then a temperature chart per failed milking, drawn as vector lines.
 */
/** What Helvetica's WinAnsi encoding can write: Latin-1 and a few marks of punctuation (a regular-expression class). */
const WIN_ANSI_CHARS = '\\x20-\\x7e\\xa0-\\xff\\u2013\\u2014\\u2018\\u2019\\u201c\\u201d\\u2022\\u2026';
/** Text Helvetica writes as it is (the minus sign becomes a hyphen, pdfSafe). */
const WIN_ANSI = new RegExp(`^[\\n${WIN_ANSI_CHARS}\\u2212]*$`);
const NOT_WIN_ANSI = new RegExp(`[^${WIN_ANSI_CHARS}]`, 'g');

/** Helvetica's WinAnsi encoding: letters with marks lose them; anything else unknown becomes '?'. */
const pdfSafe = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\u2212/g, '-')
    .replace(NOT_WIN_ANSI, '?');

/**
 * Whether the record's text needs more than Helvetica (a macron in the farm's name, a vat or an
 * exception): the record's own strings are all that is not this module's fixed, WinAnsi, wording.
 */
const needsUnicodeFont = (record: ComplianceRecord): boolean => !WIN_ANSI.test(JSON.stringify(record).normalize('NFC'));

/** Page 1: who, when, the rules, the hash, the summary. */
function writeFirstPage(w: PdfWriter, record: ComplianceRecord, hash: string): void {
  const tz = record.farm.timezone;
  const { font, bold } = w;
  w.para('Cooling compliance record', 18, bold);
  w.gap(4);
  w.para(`Farm: ${record.farm.name || '(no name)'}`, 11, bold);
  w.para(`Supply number: ${record.farm.supply_number}`, 11);
  w.para(`Period: ${periodText(record)} (farm days; every time in this record is the farm's time, ${tz})`, 10);
  w.para(`Generated: ${formatWhen(record.generated_at, tz)} by Vat-Man`, 10);
  w.gap();
  w.para('The cooling rules (farmer §9, from NZCP1), as written:', 10, bold);
  for (const r of record.rules) w.para(`${r.rule}  ${r.text}`, 9, font, MARGIN + 10);
  w.para(
    'How each is judged: R1 and R2 by the vat temperature at the deadline (10 °C by 4 h after the start; 6 °C by the sooner of 6 h after the start and 2 h after the end); R3 at every reading from the 6 °C deadline to the next milking or collection; R4 at every reading of each later milking before the collection. A gap over 15 minutes without a breach is "No data", never a pass.',
    8,
    font,
    MARGIN,
    GREY,
  );
  w.gap();
  w.para('Check that this record is unaltered', 10, bold);
  w.para(`SHA-256: ${hash}`, 8, bold);
  w.para(
    'This is the SHA-256 of the CSV attached to this PDF, which is also the CSV the compliance page downloads for the same period. To check: save the attachment (in a PDF viewer, or `pdfdetach -saveall` from poppler-utils) or download the CSV, run `sha256sum` on it (PowerShell: Get-FileHash), and compare with the line above; then compare the CSV with the tables below. The farmer can download the same period again in front of you: the same data gives the same hash.',
    8,
    font,
    MARGIN,
    GREY,
  );
  w.gap();
  const summary = summaryOf(record);
  w.para('Summary', 12, bold);
  w.para(
    `Milkings: ${summary.milkings}. Compliant: ${summary.compliant}${summary.percent === null ? '' : ` (${summary.percent.toFixed(1)} %)`}. Failed: ${summary.failed}. Not decided (no data or pending): ${summary.undecided}.`,
    10,
  );
  if (summary.worst.length) {
    w.para('Worst cases (warmest after the failure):', 10, bold);
    for (const m of summary.worst) {
      w.para(`Vat ${m.vat_number}, milking of ${formatCsvWhen(m.start, tz)}: ${verdictText(m)}${m.peak_c === null ? '' : `, up to ${m.peak_c.toFixed(1)} °C`}`, 9, font, MARGIN + 10);
    }
  }
}

const COLS = [
  { title: 'Start', x: 0 },
  { title: 'End', x: 72 },
  { title: 'Litres', x: 144 },
  { title: 'R1', x: 180 },
  { title: 'R2', x: 245 },
  { title: 'R3', x: 310 },
  { title: 'R4', x: 375 },
  { title: 'Verdict', x: 440 },
];
const ROW = 9;

/** Every milking, per vat, each vat from a new page with its column heads repeated on each page. */
function writeMilkingTables(w: PdfWriter, record: ComplianceRecord): void {
  const tz = record.farm.timezone;
  const { font, bold } = w;
  const header = (vat: number) => {
    w.need(30);
    w.gap(8);
    w.text(`Vat ${vat}`, MARGIN, 12, bold);
    w.y -= 14;
    for (const col of COLS) w.text(col.title, MARGIN + col.x, 7, bold);
    w.y -= ROW;
  };
  const ruleCell = (r: ComplianceMilking['rules'][number]) => {
    const at = ruleTime(r, tz);
    return `${STATUS_TEXT[r.status]}${at ? ` ${at.slice(0, 6)} ${at.slice(12)}` : ''}`;
  };
  for (const vat of record.vats) {
    w.newPage();
    header(vat.vat_number);
    if (!vat.milkings.length) w.para('No milkings in this period.', 9);
    for (const m of vat.milkings) {
      if (w.y - ROW < MARGIN) {
        w.newPage();
        header(vat.vat_number);
      }
      const cells = [formatCsvWhen(m.start, tz), m.end ? formatCsvWhen(m.end, tz) : 'still milking', m.volume === null ? '' : String(Math.round(m.volume)), ...m.rules.map(ruleCell), verdictText(m)];
      cells.forEach((cell, i) => w.text(cell, MARGIN + (COLS[i]?.x ?? 0), 7, i === 7 && m.verdict === 'failed' ? bold : font, i === 7 && m.verdict === 'failed' ? RED : INK));
      w.y -= ROW;
      for (const e of m.exceptions) {
        w.need(ROW);
        w.text(`Exception: ${exceptionText(e, tz)}`, MARGIN + 72, 7, font, GREY);
        w.y -= ROW;
      }
    }
  }
}

export const buildCompliancePdf = async (record: ComplianceRecord, hash: string): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const unicode = needsUnicodeFont(record) ? await import('./pdf-fonts') : undefined;
  const { font, bold } = unicode
    ? await unicode.embedUnicodeFonts(doc)
    : { font: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  const safe = unicode ? unicode.unicodeFontSafe : pdfSafe;
  doc.setTitle(`Cooling compliance record ${record.farm.supply_number} ${record.period.startDate} to ${record.period.endDate}`);
  doc.setSubject(`SHA-256 of the attached CSV: ${hash}`);
  doc.setProducer('Vat-Man');
  doc.setCreator('Vat-Man cooling compliance record');
  doc.setCreationDate(new Date(record.generated_at));
  await doc.attach(new TextEncoder().encode(buildComplianceCsv(record)), complianceFileName(record, 'csv'), {
    mimeType: 'text/csv',
    description: 'The canonical data of this record; its SHA-256 is printed on page 1',
    creationDate: new Date(record.generated_at),
    modificationDate: new Date(record.generated_at),
  });

  const w = new PdfWriter(doc, font, bold, safe);
  writeFirstPage(w, record, hash);
  writeMilkingTables(w, record);
  const failed = allMilkings(record).filter((m) => m.verdict === 'failed');
  if (failed.length) {
    w.newPage();
    w.para('Failed milkings: the vat temperature', 12, bold);
    for (const m of failed) drawFailedMilkingChart(w, m, record.farm.timezone);
  }

  // Page numbers, and the hash on every page so a page cannot be swapped in from another record.
  const pages = doc.getPages();
  pages.forEach((p, i) =>
    p.drawText(safe(`${record.farm.supply_number} · ${periodText(record)} · page ${i + 1} of ${pages.length} · SHA-256 ${hash.slice(0, 16)}…`), { x: MARGIN, y: 20, size: 6, font, color: GREY }),
  );
  return doc.save({ useObjectStreams: false });
};
