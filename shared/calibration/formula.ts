/**
 * The calibration arithmetic of operator §4 and §9, pure, for the calibration page and its tests.
 *
 * It is deliberately separate from the ingest's `volumeFromLevel` (shared/telemetry/reading.ts):
 * the ingest clamps a level at or below the wedge to an empty vat and never lets a volume go
 * negative, while calibration keeps a start volume as computed (a negative start shows a wrong
 * offset) and treats only the end of a collection specially: an end level below the wedge height
 * gives level 0 and volume 0, and a negative end volume becomes 0.
 */

export interface CalibrationConfig {
  /** Vat height (mm): the radar's distance to the floor of the vat. */
  readonly height: number;
  readonly diameter: number;
  readonly wedgeHeight: number;
  readonly volumeOffset: number;
}

/** Litres per millimetre of milk in a vat of this diameter (mm): π × d² / 4,000,000. */
const litresPerMm = (diameter: number): number => (Math.PI * diameter ** 2) / 4_000_000;

/** level = round(height − radar distance). */
const levelOf = (height: number, radarDistance: number): number => Math.round(height - radarDistance);

/** volume = round((level − wedge) × π × d² / 4,000,000 + offset), as the start of a collection uses it. */
const volumeOf = (level: number, c: Pick<CalibrationConfig, 'diameter' | 'wedgeHeight' | 'volumeOffset'>): number =>
  Math.round((level - c.wedgeHeight) * litresPerMm(c.diameter) + c.volumeOffset);

/** The end of a collection: below the wedge the vat is empty (level 0, volume 0); a negative volume is 0. */
export const endPointOf = (height: number, radarDistance: number, c: CalibrationConfig): { level: number; volume: number } => {
  const level = levelOf(height, radarDistance);
  if (level < c.wedgeHeight) return { level: 0, volume: 0 };
  return { level, volume: Math.max(0, volumeOf(level, c)) };
};

export const startPointOf = (height: number, radarDistance: number, c: CalibrationConfig): { level: number; volume: number } => {
  const level = levelOf(height, radarDistance);
  return { level, volume: volumeOf(level, c) };
};

/**
 * The diameter at which this collection's measured volume equals the dairy company's (the inverse
 * of the formula above). With the end above the wedge both ends carry the offset, so
 *   V = (Ls − Le) × π d² / 4e6   ⇒   d = √(4e6 × V / (π × (Ls − Le)));
 * with the end below the wedge (end volume 0) the start's offset stays in:
 *   V = (Ls − W) × π d² / 4e6 + offset   ⇒   d = √(4e6 × (V − offset) / (π × (Ls − W))).
 * Rounded to the millimetre; undefined when the figures give no positive depth or volume.
 */
export const diameterFor = (fonterraVolume: number, startRadar: number, endRadar: number, c: CalibrationConfig): number | undefined => {
  const ls = levelOf(c.height, startRadar);
  const le = levelOf(c.height, endRadar);
  const [depth, litres] = le < c.wedgeHeight ? [ls - c.wedgeHeight, fonterraVolume - c.volumeOffset] : [ls - le, fonterraVolume];
  if (!(depth > 0) || !(litres > 0)) return undefined;
  return Math.round(Math.sqrt((4_000_000 * litres) / (Math.PI * depth)));
};

/** A collection as the calibration table holds it (operator §3 Collection (calibration)). */
export interface CalibrationRow {
  readonly startRadar: number | null;
  readonly endRadar: number | null;
  readonly fonterraVolume: number | null;
  readonly fonterraTemperature: number | null;
  /** The vat's temperature at the start of the collection (Collection Temp). */
  readonly temperature: number | null;
  readonly omit: boolean;
}

interface CalibratedRow {
  readonly startLevel: number | null;
  readonly startVolume: number | null;
  readonly endLevel: number | null;
  readonly endVolume: number | null;
  /** start volume − end volume. */
  readonly collectionVolume: number | null;
  /** start − end − the company's volume. */
  readonly volumeDifference: number | null;
  readonly volumeRed: boolean;
  readonly temperatureDifference: number | null;
  readonly temperatureRed: boolean;
  readonly diameter: number | null;
}

/** Operator §9: a volume difference is red at ≥ max(100, 1 % of the collected volume). */
export const volumeThreshold = (collected: number): number => Math.max(100, collected / 100);
/** Operator §9: a temperature difference is red at ≥ 0.3 °C. */
const TEMPERATURE_RED = 0.3;

/** One row's figures under a configuration (Recalculate Volumes). */
export const calibrateRow = (row: CalibrationRow, c: CalibrationConfig): CalibratedRow => {
  const start = row.startRadar === null ? null : startPointOf(c.height, row.startRadar, c);
  const end = row.endRadar === null ? null : endPointOf(c.height, row.endRadar, c);
  const collectionVolume = start && end ? start.volume - end.volume : null;
  const volumeDifference = collectionVolume !== null && row.fonterraVolume !== null ? collectionVolume - row.fonterraVolume : null;
  const temperatureDifference =
    row.temperature !== null && row.fonterraTemperature !== null ? Math.round((row.temperature - row.fonterraTemperature) * 10) / 10 : null;
  const diameter =
    row.fonterraVolume !== null && row.startRadar !== null && row.endRadar !== null ? (diameterFor(row.fonterraVolume, row.startRadar, row.endRadar, c) ?? null) : null;
  return {
    startLevel: start?.level ?? null,
    startVolume: start?.volume ?? null,
    endLevel: end?.level ?? null,
    endVolume: end?.volume ?? null,
    collectionVolume,
    volumeDifference,
    volumeRed: volumeDifference !== null && collectionVolume !== null && Math.abs(volumeDifference) >= volumeThreshold(collectionVolume),
    temperatureDifference,
    // Compared in tenths, so 0.3 read back from floating point still counts as 0.3.
    temperatureRed: temperatureDifference !== null && Math.round(Math.abs(temperatureDifference) * 10) >= TEMPERATURE_RED * 10,
    diameter,
  };
};

/** Set Diameter To Average: the mean of the non-omitted rows' diameters, to the millimetre (undefined when none has one). */
export const averageDiameter = (rows: readonly CalibrationRow[], c: CalibrationConfig): number | undefined => {
  const ds = rows.filter((r) => !r.omit).map((r) => calibrateRow(r, c).diameter).filter((d): d is number => d !== null);
  return ds.length === 0 ? undefined : Math.round(ds.reduce((a, b) => a + b, 0) / ds.length);
};

/** Get Max Height From Radar: the highest end radar distance of the non-omitted rows (an empty vat's radar sees the floor). */
export const maxHeightFromRadar = (rows: readonly CalibrationRow[]): number | undefined => {
  const rs = rows.filter((r) => !r.omit && r.endRadar !== null).map((r) => r.endRadar as number);
  return rs.length === 0 ? undefined : Math.max(...rs);
};

/** Set All Radar After To Height: every non-omitted row's end radar distance becomes the height (the vat emptied). */
export const radarAfterToHeight = <R extends CalibrationRow>(rows: readonly R[], height: number): R[] =>
  rows.map((r) => (r.omit ? r : { ...r, endRadar: height }));

/**
 * The vat settings text shown before Apply (operator §2 "The resulting vat settings text"): the
 * fields VAT_SETTINGS sends, one per line.
 */
export const settingsText = (s: { supplyNumber: string; vatNumber: number; vatSize: number; height: number; diameter: number; wedgeHeight: number; volumeOffset: number }): string =>
  [
    `Supply Number: ${s.supplyNumber}`,
    `Vat Number: ${s.vatNumber}`,
    `Vat Size: ${s.vatSize}`,
    `Height: ${s.height}`,
    `Diameter: ${s.diameter}`,
    `Wedge Height: ${s.wedgeHeight}`,
    `Volume Offset: ${s.volumeOffset}`,
  ].join('\n');
