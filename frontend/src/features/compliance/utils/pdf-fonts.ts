/// <reference types="vite/client" />
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import bold from '../fonts/VatManPDFSans-Bold.ttf?inline';
import regular from '../fonts/VatManPDFSans-Regular.ttf?inline';

/**
 * The record's fonts when its text is more than Helvetica's WinAnsi can write (a farm called
 * Ōtāhuhu, a vat named in te reo): Liberation Sans 2.1.5 (SIL OFL 1.1, Helvetica's metrics), cut
 * to Latin, Latin Extended and the punctuation the record uses, renamed 'VatMan PDF Sans' as the
 * licence asks of a changed font (fonts/OFL.txt; how it was cut: docs/architecture.md). This
 * module, fontkit (about 340 kB gzipped) and the two fonts load only for such a record; pdf-lib
 * embeds only the glyphs the record uses.
 */
export const embedUnicodeFonts = async (doc: PDFDocument): Promise<{ font: PDFFont; bold: PDFFont }> => {
  doc.registerFontkit(fontkit);
  // The fonts come inlined as base64 data URLs (decoded here: the CSP lets no fetch read a data: URL).
  const bytes = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (ch) => ch.charCodeAt(0));
  return { font: await doc.embedFont(bytes(regular), { subset: true }), bold: await doc.embedFont(bytes(bold), { subset: true }) };
};

/** The characters the embedded fonts have (the cut's ranges); anything else prints as '?'. */
const UNICODE_FONT_CHARS = /[^\x20-\x7e\u00a0-\u024f\u02bc\u02c6-\u02dd\u1e00-\u1eff\u2010-\u2027\u2030-\u203a\u2044\u20ac\u2122\u2190-\u2193\u2212\u2248\u2260\u2264\u2265]/g;

/** Text for the embedded fonts: composed (ā, not a + combining macron), unknown characters as '?'. */
export const unicodeFontSafe = (text: string): string => text.normalize('NFC').replace(UNICODE_FONT_CHARS, '?');
