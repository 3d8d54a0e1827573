import { LineCapStyle } from 'pdf-lib';
import type { ComplianceMilking } from '@shared/api/actions/farmer-compliance';
import { COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C } from '@shared/compliance/cooling-rules';
import { formatCsvWhen } from '../../../lib/time-format';
import { A4, BLUE, GREY, MARGIN, RED, type PdfWriter } from './pdf-writer';
import { verdictText } from './record';

interface Point {
  readonly t: number;
  readonly v: number;
}

/** A failed milking's vat temperature as vector lines: the two limits, the R1/R2 deadlines, the breaches in red. */
export function drawFailedMilkingChart(w: PdfWriter, m: ComplianceMilking, tz: string): void {
  const { font } = w;
  const H = 150;
  w.need(H + 40);
  w.gap(6);
  w.para(`Vat ${m.vat_number}, milking of ${formatCsvWhen(m.start, tz)}: ${verdictText(m)}`, 9, w.bold);
  const x0 = MARGIN + 28;
  const width = A4[0] - MARGIN - x0;
  const yTop = w.y - 4;
  const yBottom = yTop - H;
  const points: Point[] = m.curve.map((p) => ({ t: Date.parse(p.t), v: p.c }));
  const tMin = Date.parse(m.start);
  const tMax = Math.max(tMin + 3_600_000, ...points.map((p) => p.t));
  const vMax = Math.max(COOL_FIRST_LIMIT_C + 4, ...points.map((p) => p.v)) + 1;
  const vMin = Math.min(0, ...points.map((p) => p.v));
  const X = (t: number) => x0 + ((t - tMin) / (tMax - tMin)) * width;
  const Y = (v: number) => yBottom + ((v - vMin) / (vMax - vMin)) * H;
  const page = w.page;
  page.drawRectangle({ x: x0, y: yBottom, width, height: H, borderColor: GREY, borderWidth: 0.5 });
  for (let v = Math.ceil(vMin / 5) * 5; v <= vMax; v += 5) page.drawText(`${v}`, { x: MARGIN, y: Y(v) - 3, size: 7, font, color: GREY });
  page.drawText('°C', { x: MARGIN, y: yTop + 2, size: 7, font, color: GREY });
  for (const limit of [COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C]) {
    page.drawLine({ start: { x: x0, y: Y(limit) }, end: { x: x0 + width, y: Y(limit) }, thickness: 0.5, color: RED, dashArray: [3, 2] });
    page.drawText(`${limit} °C`, { x: x0 + width - 24, y: Y(limit) + 2, size: 6, font, color: RED });
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
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    // A gap over 15 minutes is an outage: the line breaks there.
    if (b.t - a.t > 15 * 60_000) continue;
    page.drawLine({ start: { x: X(a.t), y: Y(a.v) }, end: { x: X(b.t), y: Y(b.v) }, thickness: 1, color: BLUE, lineCap: LineCapStyle.Round });
  }
  for (const r of m.rules) {
    if (r.status === 'failed' && r.failed_at) {
      const t = Date.parse(r.failed_at);
      const near = points.reduce<Point | undefined>((best, p) => (!best || Math.abs(p.t - t) < Math.abs(best.t - t) ? p : best), undefined);
      if (near) page.drawCircle({ x: X(t), y: Y(near.v), size: 2.5, color: RED });
    }
  }
  page.drawText(w.safe(formatCsvWhen(tMin, tz)), { x: x0, y: yBottom - 9, size: 6, font, color: GREY });
  const endText = w.safe(formatCsvWhen(tMax, tz));
  page.drawText(endText, { x: x0 + width - font.widthOfTextAtSize(endText, 6), y: yBottom - 9, size: 6, font, color: GREY });
  w.y = yBottom - 18;
}
