import { rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';

/** The record's page: A4 in points, with one margin all round. */
export const A4 = [595.28, 841.89] as const;
export const MARGIN = 40;
export const INK = rgb(0.1, 0.1, 0.1);
export const GREY = rgb(0.45, 0.45, 0.45);
export const RED = rgb(0.75, 0.1, 0.1);
export const BLUE = rgb(0.1, 0.3, 0.7);

/**
 * A cursor down the pages of the record: writes lines top to bottom, wraps paragraphs to the
 * width and starts a page when the next thing would run into the bottom margin. Every string goes
 * through `safe`, so nothing reaches a font that cannot write it.
 */
export class PdfWriter {
  page!: PDFPage;
  /** The baseline of the next line, in points from the bottom of the page. */
  y = 0;

  constructor(
    private readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly safe: (text: string) => string,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage([...A4]);
    this.y = A4[1] - MARGIN;
  }

  /** A new page unless `h` more points fit above the bottom margin. */
  need(h: number): void {
    if (this.y - h < MARGIN) this.newPage();
  }

  text(s: string, x: number, size = 9, f: PDFFont = this.font, color = INK): void {
    this.page.drawText(this.safe(s), { x, y: this.y, size, font: f, color });
  }

  /** Lines wrapped to the width. */
  para(s: string, size = 9, f: PDFFont = this.font, x = MARGIN, color = INK): void {
    const width = A4[0] - MARGIN - x;
    const words = this.safe(s).split(' ');
    let line = '';
    const flush = () => {
      this.need(size + 3);
      this.text(line, x, size, f, color);
      this.y -= size + 3;
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
  }

  gap(h = 6): void {
    this.y -= h;
  }
}
