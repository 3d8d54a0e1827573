import type { XView } from './vat-line-chart';

/**
 * Above a screen's charts: Reset zoom while they are zoomed (§2.17: one zoom for them all), and
 * otherwise how to zoom. The mouse wheel zooms only with Ctrl, so scrolling a page of charts
 * scrolls it; phones pinch.
 */
export function ZoomControl({ view, onReset, className = 'chart-range__reset' }: { readonly view: XView | undefined; readonly onReset: () => void; readonly className?: string }) {
  return view ? (
    <button type="button" className={`button ${className}`} onClick={onReset}>
      Reset zoom
    </button>
  ) : (
    <p className="chart-zoom-hint">Zoom: Ctrl + scroll over a chart, or pinch on a phone. Drag a zoomed chart sideways to move along.</p>
  );
}
