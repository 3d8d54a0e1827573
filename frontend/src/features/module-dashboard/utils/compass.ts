/** The 16 points of the compass, clockwise from north, each covering 22.5°. */
export const COMPASS_POINTS = [
  'N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE',
  'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW',
] as const;
type CompassPoint = (typeof COMPASS_POINTS)[number];

/**
 * A wind direction in degrees as a 16-point compass name (farmer §2.4): each point is centred on
 * its bearing, so N covers 348.75° up to 11.25°. Any finite angle works (negative, over 360).
 */
export const compassPoint = (degrees: number): CompassPoint | undefined => {
  if (!Number.isFinite(degrees)) return undefined;
  const normalised = ((degrees % 360) + 360) % 360;
  return COMPASS_POINTS[Math.floor((normalised + 11.25) / 22.5) % 16];
};
