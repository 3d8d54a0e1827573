/**
 * The §9 quality bands of the colony estimate (currentEstCFU, pickupEstCFU): Excellent up to 4.3,
 * Low risk up to 4.7, Medium risk up to 5, High risk up to 6, otherwise Do not collect. One
 * definition for the dashboard's gauge and the milk-quality charts.
 */
export type QualityRisk = 'NORISK' | 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export const QUALITY_BANDS: readonly { readonly upTo: number; readonly risk: QualityRisk; readonly label: string; readonly colour: string }[] = [
  { upTo: 4.3, risk: 'NORISK', label: 'Excellent', colour: '#2e6b31' },
  { upTo: 4.7, risk: 'LOW', label: 'Low risk', colour: '#7a9a1f' },
  { upTo: 5, risk: 'MEDIUM', label: 'Medium risk', colour: '#c98a00' },
  { upTo: 6, risk: 'HIGH', label: 'High risk', colour: '#d4601a' },
];
const DO_NOT_COLLECT = { risk: 'CRITICAL' as QualityRisk, label: 'Do not collect', colour: '#c62828' } as const;

/** The band a value falls in. */
export const qualityBand = (value: number): { readonly risk: QualityRisk; readonly label: string; readonly colour: string } =>
  QUALITY_BANDS.find((b) => value <= b.upTo) ?? DO_NOT_COLLECT;
