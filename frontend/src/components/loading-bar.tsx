import './loading-bar.css';

/** The thin progress bar at the top of the page while something loads (operator §2 Partner shells). */
export function LoadingBar({ active }: { readonly active: boolean }) {
  if (!active) return null;
  return (
    <div className="loading-bar" role="progressbar" aria-label="Loading">
      <div className="loading-bar__indicator" />
    </div>
  );
}
