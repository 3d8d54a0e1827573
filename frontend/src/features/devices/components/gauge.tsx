/** A half-ring gauge drawn as SVG (operator §2 device gauges): the arc fills from min to max. */
interface GaugeProps {
  readonly title: string;
  readonly value: number | null | undefined;
  readonly min: number;
  readonly max: number;
  readonly unit: string;
  readonly decimals?: number;
  /**
   * When the ring's scale is in another unit than the reading: `per` reading units make one scale
   * unit (min and max are in scale units, labelled with `unit`).
   */
  readonly scale?: { readonly per: number; readonly unit: string };
}

const R = 80;
const CX = 100;
const CY = 100;

/** The point on the ring at fraction f (0 = left end, 1 = right end). */
const pointAt = (f: number) => {
  const angle = Math.PI * (1 - f);
  return { x: CX + R * Math.cos(angle), y: CY - R * Math.sin(angle) };
};

const gaugeFraction = (value: number, min: number, max: number): number => (max > min ? Math.min(1, Math.max(0, (value - min) / (max - min))) : 0);

export function Gauge({ title, value, min, max, unit, decimals = 0, scale }: GaugeProps) {
  const has = typeof value === 'number' && Number.isFinite(value);
  const per = scale?.per ?? 1;
  const f = has ? gaugeFraction(value / per, min, max) : 0;
  const limit = (n: number) => (scale ? `${n} ${scale.unit}` : String(n));
  const end = pointAt(f);
  const text = has ? `${value.toFixed(decimals)} ${unit}` : 'No reading';
  return (
    <figure className="gauge">
      <svg viewBox="0 0 200 120" role="meter" aria-label={title} aria-valuemin={min * per} aria-valuemax={max * per} aria-valuenow={has ? value : min * per} aria-valuetext={text}>
        <path d={`M ${CX - R} ${CY} A ${R} ${R} 0 0 1 ${CX + R} ${CY}`} className="gauge__track" />
        {has && f > 0 && <path d={`M ${CX - R} ${CY} A ${R} ${R} 0 0 1 ${end.x.toFixed(2)} ${end.y.toFixed(2)}`} className="gauge__value" />}
        <text x={CX} y={CY - 12} textAnchor="middle" className="gauge__text">
          {text}
        </text>
        <text x={CX - R} y={CY + 16} textAnchor="middle" className="gauge__limit">
          {limit(min)}
        </text>
        <text x={CX + R} y={CY + 16} textAnchor="middle" className="gauge__limit">
          {limit(max)}
        </text>
      </svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}
