import type { Plant, PlantVat } from '@shared/entities/equipment';

/*
 * Where each part of the equipment diagram goes, in SVG user units (pure, so it is tested
 * without a browser). The milk comes in at the top left (the milk line from the dairy), passes
 * the pre-cooling, runs to the right edge, down a riser, and along a header over each row of
 * vats, dropping into each vat. Under each vat sit its fridge units and a caption.
 *
 *   Milk line ──[pre-cooling]────────┐
 *                                    │
 *      ┌──────────────┬──────────────┤   header of row 1
 *   [  Vat 1  ]    [  Vat 2  ]       │
 *   [F1]           [F1][F2]          │
 *      ┌──────────────┬──────────────┘   header of row 2 …
 */

export const LAYOUT = {
  margin: 10,
  /** Room on the right for the riser. */
  riserGap: 16,
  /** A vat's column: its tank, fridges and caption. */
  columnWidth: 150,
  /** The band with the milk line and the pre-cooling. */
  topBand: 118,
  pipeY: 36,
  /** The narrowest diagram: the milk line, its label and the pre-cooling fit across. */
  minWidth: 320,
  tank: { width: 130, height: 104 },
  /** From a row's header down to the tank. */
  drop: 20,
  fridge: { width: 34, height: 28, gap: 8, below: 14 },
  captionBelow: 16,
  /** The caption's second line (the fridge units) under its first (the vat's kind). */
  captionLine: 13,
  rowGap: 14,
  /** Shown size: user units × this many CSS pixels, never wider than the screen (CSS max-width). */
  pixelsPerUnit: 1.6,
} as const;

const ROW_HEIGHT =
  LAYOUT.drop + LAYOUT.tank.height + LAYOUT.fridge.below + LAYOUT.fridge.height + LAYOUT.captionBelow + LAYOUT.captionLine + 8 + LAYOUT.rowGap;

/** How many vats go in a row: up to 4 across a wide screen, 2 on a phone. */
const columnsFor = (vats: number, narrow: boolean): number => Math.max(1, Math.min(vats, narrow ? 2 : 4));

export interface PlacedVat {
  readonly vat: PlantVat;
  /** Left edge of the tank and its top. */
  readonly x: number;
  readonly y: number;
  /** Where the milk drops in: the tank's centre line. */
  readonly cx: number;
  readonly row: number;
  /** Each fridge unit's left edge, top at `fridgeY`. */
  readonly fridgeXs: readonly number[];
  readonly fridgeY: number;
  readonly captionY: number;
}

interface DiagramLayout {
  readonly width: number;
  readonly height: number;
  readonly columns: number;
  /** Left edge of the pre-cooling part, centred on the pipe. */
  readonly preCoolingX: number;
  /** The riser's x (right edge) and each row's header y. */
  readonly riserX: number;
  readonly headerYs: readonly number[];
  readonly vats: readonly PlacedVat[];
}

const fridgeXs = (tankX: number, count: number): number[] => {
  const { width, gap } = LAYOUT.fridge;
  const total = count * width + (count - 1) * gap;
  const start = tankX + (LAYOUT.tank.width - total) / 2;
  return Array.from({ length: count }, (_, i) => start + i * (width + gap));
};

export const diagramLayout = (plant: Plant, narrow: boolean): DiagramLayout => {
  const { margin, riserGap, columnWidth, topBand, minWidth, tank, drop, fridge } = LAYOUT;
  const columns = columnsFor(plant.vats.length, narrow);
  const rows = Math.ceil(plant.vats.length / columns);
  const width = Math.max(minWidth, margin * 2 + riserGap + columns * columnWidth);
  const riserX = width - margin - riserGap / 2;
  // Fewer vats than the narrowest diagram holds (a one-vat farm): the columns are centred under the milk line.
  const offset = (width - margin * 2 - riserGap - columns * columnWidth) / 2;
  const headerYs = Array.from({ length: Math.max(rows, 1) }, (_, r) => topBand + r * ROW_HEIGHT);
  const vats = plant.vats.map((vat, i): PlacedVat => {
    const row = Math.floor(i / columns);
    const col = i % columns;
    const x = margin + offset + col * columnWidth + (columnWidth - tank.width) / 2;
    const y = (headerYs[row] ?? topBand) + drop;
    const fridgeY = y + tank.height + fridge.below;
    return { vat, x, y, cx: x + tank.width / 2, row, fridgeXs: fridgeXs(x, vat.sub_value), fridgeY, captionY: fridgeY + fridge.height + LAYOUT.captionBelow };
  });
  const height = rows === 0 ? topBand + 20 : topBand + rows * ROW_HEIGHT - LAYOUT.rowGap;
  return { width, height, columns, preCoolingX: 128, riserX, headerYs: rows === 0 ? [] : headerYs, vats };
};
