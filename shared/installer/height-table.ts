/**
 * The installer's vat table (operator spec §5, §9): for each vat diameter (mm), the capacities
 * (L) and the height (mm) derived from them. Used by the installer screens (the height follows
 * the chosen capacity when the manual vat input is off), by the server (which tells a table vat
 * from a manual one) and by the simulator (its synthetic vats).
 *
 * Two rows of diameter 2875 hold 18000 L: the plain vat (3000 mm) and the Sidewall vat (2750 mm).
 * A row's `label` is what the capacity list shows and what tells them apart; the volume sent to
 * the server is the number alone (§5 'Volume is sent without the " Sidewall" suffix').
 */
interface VatRow {
  readonly diameter: number;
  readonly volume: number;
  readonly sidewall: boolean;
  readonly height: number;
  /** Offered on New Install only (§9 '6800 to 1750 (new install only)'). */
  readonly newInstallOnly: boolean;
}

export const VAT_DIAMETERS = [2337, 2875] as const;
type VatDiameter = (typeof VAT_DIAMETERS)[number];

const row = (diameter: VatDiameter, volume: number, height: number, opts: { sidewall?: boolean; newInstallOnly?: boolean } = {}): VatRow => ({
  diameter,
  volume,
  height,
  sidewall: opts.sidewall ?? false,
  newInstallOnly: opts.newInstallOnly ?? false,
});

export const HEIGHT_TABLE: readonly VatRow[] = [
  row(2337, 4500, 1219),
  row(2337, 5700, 1500),
  row(2337, 6800, 1750, { newInstallOnly: true }),
  row(2337, 7800, 2000),
  row(2337, 9100, 2438),
  row(2337, 11000, 2719),
  row(2337, 12000, 3000),
  row(2337, 14000, 3500, { sidewall: true }),
  row(2337, 16000, 4000, { sidewall: true }),
  row(2337, 18000, 4438),
  row(2875, 11500, 2000),
  row(2875, 14000, 2438),
  row(2875, 16000, 2719),
  row(2875, 18000, 3000),
  row(2875, 18000, 2750, { sidewall: true }),
  row(2875, 21500, 3500, { sidewall: true }),
  row(2875, 24000, 4000, { sidewall: true }),
  row(2875, 26000, 4438, { sidewall: true }),
  row(2875, 30000, 4719, { sidewall: true }),
];

/** What the capacity list shows: '14000 Sidewall', '9100'. */
export const vatLabel = (r: Pick<VatRow, 'volume' | 'sidewall'>): string => (r.sidewall ? `${r.volume} Sidewall` : String(r.volume));

/** The capacity choices for a diameter on one of the two screens. */
export const capacitiesOf = (diameter: number, screen: 'config' | 'new'): VatRow[] =>
  HEIGHT_TABLE.filter((r) => r.diameter === diameter && (screen === 'new' || !r.newInstallOnly));

/** The row a diameter and capacity label name ('18000 Sidewall' and '18000' are two rows). */
const rowOf = (diameter: number, label: string): VatRow | undefined => HEIGHT_TABLE.find((r) => r.diameter === diameter && vatLabel(r) === label.trim());

/** The derived height of a diameter and capacity label, when the pair is in the table. */
export const heightOf = (diameter: number, label: string): number | undefined => rowOf(diameter, label)?.height;

/** The volume as sent to the server: the label without ' Sidewall'. */
export const volumeOfLabel = (label: string): number => Number(label.replace(/\s*Sidewall\s*$/i, ''));

/** Whether diameter, volume and height are a row of the table (either of the two 18000 L rows). */
export const isTableVat = (diameter: number, volume: number, height: number): boolean =>
  HEIGHT_TABLE.some((r) => r.diameter === diameter && r.volume === volume && r.height === height);
