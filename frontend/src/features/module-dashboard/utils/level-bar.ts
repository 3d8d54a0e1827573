/** The fill of a value bar never draws above 95% of its height, so a full tank still shows its rim (farmer §2.4). */
const BAR_MAX_HEIGHT_PERCENT = 95;

/**
 * A tank level as a bar: `percent` (for the label and the progressbar value) clamps to 0–100,
 * `height` (the drawn fill) to 0–95. Undefined when there is no reading.
 */
export const levelBar = (value: number | null | undefined): { readonly percent: number; readonly height: number } | undefined => {
  if (value === null || value === undefined || !Number.isFinite(value)) return undefined;
  const percent = Math.min(100, Math.max(0, value));
  return { percent, height: Math.min(BAR_MAX_HEIGHT_PERCENT, percent) };
};
