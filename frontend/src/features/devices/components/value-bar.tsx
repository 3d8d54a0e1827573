import type { BarTone } from '../utils/fleet';

/** A small horizontal bar beside a value (operator §2 device list: level and temperature bars). */
export function ValueBar({ bar, label }: { readonly bar: { percent: number; tone: BarTone } | undefined; readonly label: string }) {
  if (!bar) return null;
  return (
    <span className="value-bar" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(bar.percent)}>
      <span className={`value-bar__fill value-bar__fill--${bar.tone}`} style={{ width: `${bar.percent}%` }} />
    </span>
  );
}
