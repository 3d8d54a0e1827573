import { describe, expect, it } from 'vitest';
import { LABEL_GAP, placeMarkerLabels } from './marker-labels';

const AREA = { left: 72, right: 1000 };
/** About what 'Milking start' and 'Milking end' measure in 11 px system-ui. */
const START = 68;
const END = 62;

describe('placeMarkerLabels', () => {
  it('puts labels of markers far apart in the top row, right of their lines', () => {
    expect(
      placeMarkerLabels(
        [
          { px: 100, width: START },
          { px: 400, width: END },
        ],
        AREA,
      ),
    ).toEqual([
      { x: 100 + LABEL_GAP, row: 0 },
      { x: 400 + LABEL_GAP, row: 0 },
    ]);
  });

  it('drops the label of a close marker to the next row, so milking start and end do not overlap', () => {
    const [start, end] = placeMarkerLabels(
      [
        { px: 500, width: START },
        { px: 510, width: END },
      ],
      AREA,
    );
    expect(start).toEqual({ x: 500 + LABEL_GAP, row: 0 });
    expect(end).toEqual({ x: 510 + LABEL_GAP, row: 1 });
  });

  it('places from left to right whatever order the markers come in, and reuses a row once clear', () => {
    const placed = placeMarkerLabels(
      [
        { px: 640, width: START },
        { px: 510, width: END },
        { px: 500, width: START },
        { px: 600, width: START },
      ],
      AREA,
    );
    expect(placed.map((p) => p?.row)).toEqual([1, 1, 0, 0]);
  });

  it('never puts two labels of one row closer than the gap', () => {
    const labels = Array.from({ length: 20 }, (_, i) => ({ px: 100 + i * 37, width: i % 2 ? END : START }));
    const placed = placeMarkerLabels(labels, AREA);
    for (const [i, a] of placed.entries()) {
      for (const [k, b] of placed.entries()) {
        if (!a || !b || k <= i || a.row !== b.row) continue;
        const [first, second] = a.x < b.x ? [{ ...a, w: labels[i]!.width }, b] : [{ ...b, w: labels[k]!.width }, a];
        expect(second.x - (first.x + first.w)).toBeGreaterThanOrEqual(LABEL_GAP);
      }
    }
  });

  it('puts a label left of its line near the right edge, and never left of the plot', () => {
    expect(placeMarkerLabels([{ px: 980, width: END }], AREA)).toEqual([{ x: 980 - LABEL_GAP - END, row: 0 }]);
    expect(placeMarkerLabels([{ px: 80, width: 2000 }], AREA)).toEqual([{ x: AREA.left, row: 0 }]);
  });

  it('leaves out a label that would clear no row, rather than print it over the others', () => {
    const placed = placeMarkerLabels(
      [
        { px: 500, width: START },
        { px: 502, width: START },
        { px: 504, width: START },
      ],
      AREA,
      2,
    );
    expect(placed).toEqual([{ x: 503, row: 0 }, { x: 505, row: 1 }, undefined]);
  });
});
