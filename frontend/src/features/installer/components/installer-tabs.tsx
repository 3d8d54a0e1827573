/** The installer pages' tab bar: Device, then one tab a vat; a tab with a wrong field is marked. */
export function InstallerTabs({ label, tabs, shown, onSelect, hasProblem }: { readonly label: string; readonly tabs: readonly string[]; readonly shown: number; readonly onSelect: (index: number) => void; readonly hasProblem?: (index: number) => boolean }) {
  return (
    <div role="tablist" aria-label={label} className="installer__tabs">
      {tabs.map((t, k) => (
        <button key={t} type="button" role="tab" aria-selected={k === shown} className={`installer__tab${hasProblem?.(k) ? ' installer__tab--error' : ''}`} onClick={() => onSelect(k)}>
          {t}
        </button>
      ))}
    </div>
  );
}
