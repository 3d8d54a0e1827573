/** Pixels between a marker line and its label, and the least space kept between two labels of a row. */
export const LABEL_GAP = 3;
/** The height of a row of marker labels (11 px text and a little space). */
export const LABEL_ROW_HEIGHT = 14;
/** Labels stack at most this many rows down from the top of the plot; one that fits in none is not drawn. */
const LABEL_MAX_ROWS = 3;

/** A labelled marker as drawn: its line's x and its label's measured width, in px. */
interface LabelToPlace {
  readonly px: number;
  readonly width: number;
}

/** Where a label goes: its left edge and its row (0 at the top); `undefined` where it would only cover others. */
interface PlacedLabel {
  readonly x: number;
  readonly row: number;
}

/**
 * Places marker labels at the top of a plot so none covers another (milking start and end an hour
 * apart are a few pixels apart on a week's chart). A label sits right of its line, or left of it
 * where it would run past the plot's right edge; taken from left to right, each goes in the first
 * row where it clears the labels already there by LABEL_GAP. A label that clears in none of the
 * LABEL_MAX_ROWS rows is left out (its line is still drawn; zooming in gives it room).
 */
export const placeMarkerLabels = (labels: readonly LabelToPlace[], area: { readonly left: number; readonly right: number }, maxRows = LABEL_MAX_ROWS): (PlacedLabel | undefined)[] => {
  const rows: { from: number; to: number }[][] = Array.from({ length: maxRows }, () => []);
  const placed: (PlacedLabel | undefined)[] = labels.map(() => undefined);
  const order = labels.map((l, i) => ({ ...l, i })).sort((a, b) => a.px - b.px);
  for (const { px, width, i } of order) {
    const x = Math.max(area.left, px + LABEL_GAP + width > area.right ? px - LABEL_GAP - width : px + LABEL_GAP);
    const row = rows.findIndex((taken) => taken.every((t) => x + width + LABEL_GAP <= t.from || x >= t.to + LABEL_GAP));
    if (row === -1) continue;
    rows[row]?.push({ from: x, to: x + width });
    placed[i] = { x, row };
  }
  return placed;
};
