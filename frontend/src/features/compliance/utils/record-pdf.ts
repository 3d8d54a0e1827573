import { LineCapStyle, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { ComplianceMilking, ComplianceRecord } from '@shared/api/actions/farmer-compliance';
import { COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C } from '@shared/compliance/cooling-rules';
import { formatCsvWhen, formatWhen } from '../../../lib/time-format';
import { allMilkings, buildComplianceCsv, complianceFileName, exceptionText, periodText, ruleTime, STATUS_TEXT, summaryOf, verdictText } from './record';

/**
 * The cooling compliance record as a PDF, built in the browser with pdf-lib (this module
 * is loaded only when the farmer asks for the PDF). A4, the standard Helvetica (no font files)
 * unless the record's text needs more than it can write (macrons: `pdf-fonts.ts`, loaded then):
 * page 1 states the farm, supply number, period, the rules as written, when it was generated, the
 * SHA-256 of the canonical CSV (attached to the PDF) and the summary; then every milking per vat;
 * then a temperature chart per failed milking, drawn as vector lines.
 */
const A4 = [595.28, 841.89] as const;
const MARGIN = 40;
const INK = rgb(0.1, 0.1, 0.1);
const GREY = rgb(0.45, 0.45, 0.45);
const RED = rgb(0.75, 0.1, 0.1);
const BLUE = rgb(0.1, 0.3, 0.7);

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

interface Cursor {
  page: PDFPage;
  y: number;
}

export const buildCompliancePdf = async (record: ComplianceRecord, hash: string): Promise<Uint8Array> => {
  const tz = record.farm.timezone;
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

  const newPage = (): Cursor => ({ page: doc.addPage([...A4]), y: A4[1] - MARGIN });
  let c = newPage();
  const need = (h: number) => {
    if (c.y - h < MARGIN) c = newPage();
  };
  const text = (s: string, x: number, size = 9, f: PDFFont = font, color = INK) => c.page.drawText(safe(s), { x, y: c.y, size, font: f, color });
  /** Lines wrapped to the width. */
  const para = (s: string, size = 9, f: PDFFont = font, x = MARGIN, color = INK) => {
    const width = A4[0] - MARGIN - x;
    const words = safe(s).split(' ');
    let line = '';
    const flush = () => {
      need(size + 3);
      text(line, x, size, f, color);
      c.y -= size + 3;
      line = '';
    };
    for (const w of words) {
      const next = line ? `${line} ${w}` : w;
      if (f.widthOfTextAtSize(next, size) > width && line) {
        flush();
        line = w;
      } else line = next;
    }
    if (line) flush();
  };
  const gap = (h = 6) => {
    c.y -= h;
  };

  // ---- Page 1: who, when, the rules, the hash, the summary ----
  para('Cooling compliance record', 18, bold);
  gap(4);
  para(`Farm: ${record.farm.name || '(no name)'}`, 11, bold);
  para(`Supply number: ${record.farm.supply_number}`, 11);
  para(`Period: ${periodText(record)} (farm days; every time in this record is the farm's time, ${tz})`, 10);
  para(`Generated: ${formatWhen(record.generated_at, tz)} by Vat-Man`, 10);
  gap();
  para('The cooling rules (farmer §9, from NZCP1), as written:', 10, bold);
  for (const r of record.rules) para(`${r.rule}  ${r.text}`, 9, font, MARGIN + 10);
  para(
    'How each is judged: R1 and R2 by the vat temperature at the deadline (10 °C by 4 h after the start; 6 °C by the sooner of 6 h after the start and 2 h after the end); R3 at every reading from the 6 °C deadline to the next milking or collection; R4 at every reading of each later milking before the collection. A gap over 15 minutes without a breach is "No data", never a pass.',
    8,
    font,
    MARGIN,
    GREY,
  );
  gap();
  para('Check that this record is unaltered', 10, bold);
  para(`SHA-256: ${hash}`, 8, bold);
  para(
    'This is the SHA-256 of the CSV attached to this PDF, which is also the CSV the compliance page downloads for the same period. To check: save the attachment (in a PDF viewer, or `pdfdetach -saveall` from poppler-utils) or download the CSV, run `sha256sum` on it (PowerShell: Get-FileHash), and compare with the line above; then compare the CSV with the tables below. The farmer can download the same period again in front of you: the same data gives the same hash.',
    8,
    font,
    MARGIN,
    GREY,
  );
  gap();
  const summary = summaryOf(record);
  para('Summary', 12, bold);
  para(
    `Milkings: ${summary.milkings}. Compliant: ${summary.compliant}${summary.percent === null ? '' : ` (${summary.percent.toFixed(1)} %)`}. Failed: ${summary.failed}. Not decided (no data or pending): ${summary.undecided}.`,
    10,
  );
  if (summary.worst.length) {
    para('Worst cases (warmest after the failure):', 10, bold);
    for (const m of summary.worst) {
      para(`Vat ${m.vat_number}, milking of ${formatCsvWhen(m.start, tz)}: ${verdictText(m)}${m.peak_c === null ? '' : `, up to ${m.peak_c.toFixed(1)} °C`}`, 9, font, MARGIN + 10);
    }
  }

  // ---- Every milking, per vat ----
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
  const header = (vat: number) => {
    need(30);
    gap(8);
    text(`Vat ${vat}`, MARGIN, 12, bold);
    c.y -= 14;
    for (const col of COLS) text(col.title, MARGIN + col.x, 7, bold);
    c.y -= ROW;
  };
  const ruleCell = (r: ComplianceMilking['rules'][number]) => {
    const at = ruleTime(r, tz);
    return `${STATUS_TEXT[r.status]}${at ? ` ${at.slice(0, 6)} ${at.slice(12)}` : ''}`;
  };
  for (const vat of record.vats) {
    c = newPage();
    header(vat.vat_number);
    if (!vat.milkings.length) para('No milkings in this period.', 9);
    for (const m of vat.milkings) {
      if (c.y - ROW < MARGIN) {
        c = newPage();
        header(vat.vat_number);
      }
      const cells = [formatCsvWhen(m.start, tz), m.end ? formatCsvWhen(m.end, tz) : 'still milking', m.volume === null ? '' : String(Math.round(m.volume)), ...m.rules.map(ruleCell), verdictText(m)];
      cells.forEach((cell, i) => text(cell, MARGIN + (COLS[i]?.x ?? 0), 7, i === 7 && m.verdict === 'failed' ? bold : font, i === 7 && m.verdict === 'failed' ? RED : INK));
      c.y -= ROW;
      for (const e of m.exceptions) {
        need(ROW);
        text(`Exception: ${exceptionText(e, tz)}`, MARGIN + 72, 7, font, GREY);
        c.y -= ROW;
      }
    }
  }

  // ---- A chart per failed milking ----
  const failed = allMilkings(record).filter((m) => m.verdict === 'failed');
  if (failed.length) {
    c = newPage();
    para('Failed milkings: the vat temperature', 12, bold);
    for (const m of failed) drawChart(m);
  }

  function drawChart(m: ComplianceMilking) {
    const H = 150;
    need(H + 40);
    gap(6);
    para(`Vat ${m.vat_number}, milking of ${formatCsvWhen(m.start, tz)}: ${verdictText(m)}`, 9, bold);
    const x0 = MARGIN + 28;
    const w = A4[0] - MARGIN - x0;
    const yTop = c.y - 4;
    const yBottom = yTop - H;
    const points = m.curve.map((p) => ({ t: Date.parse(p.t), v: p.c }));
    const tMin = Date.parse(m.start);
    const tMax = Math.max(tMin + 3_600_000, ...points.map((p) => p.t));
    const vMax = Math.max(COOL_FIRST_LIMIT_C + 4, ...points.map((p) => p.v)) + 1;
    const vMin = Math.min(0, ...points.map((p) => p.v));
    const X = (t: number) => x0 + ((t - tMin) / (tMax - tMin)) * w;
    const Y = (v: number) => yBottom + ((v - vMin) / (vMax - vMin)) * H;
    const page = c.page;
    page.drawRectangle({ x: x0, y: yBottom, width: w, height: H, borderColor: GREY, borderWidth: 0.5 });
    for (let v = Math.ceil(vMin / 5) * 5; v <= vMax; v += 5) page.drawText(`${v}`, { x: MARGIN, y: Y(v) - 3, size: 7, font, color: GREY });
    page.drawText('°C', { x: MARGIN, y: yTop + 2, size: 7, font, color: GREY });
    for (const limit of [COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C]) {
      page.drawLine({ start: { x: x0, y: Y(limit) }, end: { x: x0 + w, y: Y(limit) }, thickness: 0.5, color: RED, dashArray: [3, 2] });
      page.drawText(`${limit} °C`, { x: x0 + w - 24, y: Y(limit) + 2, size: 6, font, color: RED });
    }
    // The R1 and R2 deadlines, one line and one label where they fall together.
    const deadlines = new Map<string, string[]>();
    for (const r of m.rules) if ((r.rule === 'R1' || r.rule === 'R2') && r.deadline && Date.parse(r.deadline) <= tMax) deadlines.set(r.deadline, [...(deadlines.get(r.deadline) ?? []), r.rule]);
    [...deadlines].forEach(([at, rules], i) => {
      const x = X(Date.parse(at));
      page.drawLine({ start: { x, y: yBottom }, end: { x, y: yTop }, thickness: 0.5, color: GREY, dashArray: [2, 2] });
      page.drawText(`${rules.join(' and ')} deadline`, { x: x + 2, y: yTop - 8 - i * 8, size: 6, font, color: GREY });
    });
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1] as { t: number; v: number };
      const b = points[i] as { t: number; v: number };
      // A gap over 15 minutes is an outage: the line breaks there.
      if (b.t - a.t > 15 * 60_000) continue;
      page.drawLine({ start: { x: X(a.t), y: Y(a.v) }, end: { x: X(b.t), y: Y(b.v) }, thickness: 1, color: BLUE, lineCap: LineCapStyle.Round });
    }
    for (const r of m.rules) {
      if (r.status === 'failed' && r.failed_at) {
        const t = Date.parse(r.failed_at);
        const near = points.reduce<{ t: number; v: number } | undefined>((best, p) => (!best || Math.abs(p.t - t) < Math.abs(best.t - t) ? p : best), undefined);
        if (near) page.drawCircle({ x: X(t), y: Y(near.v), size: 2.5, color: RED });
      }
    }
    page.drawText(safe(formatCsvWhen(tMin, tz)), { x: x0, y: yBottom - 9, size: 6, font, color: GREY });
    const endText = safe(formatCsvWhen(tMax, tz));
    page.drawText(endText, { x: x0 + w - font.widthOfTextAtSize(endText, 6), y: yBottom - 9, size: 6, font, color: GREY });
    c.y = yBottom - 18;
  }

  // Page numbers, and the hash on every page so a page cannot be swapped in from another record.
  const pages = doc.getPages();
  pages.forEach((p, i) =>
    p.drawText(safe(`${record.farm.supply_number} · ${periodText(record)} · page ${i + 1} of ${pages.length} · SHA-256 ${hash.slice(0, 16)}…`), { x: MARGIN, y: 20, size: 6, font, color: GREY }),
  );
  return doc.save({ useObjectStreams: false });
};
