import { useQuery } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { useApiClient } from '../../../lib/api-client-provider';
import { westlandsFarmsQuery } from '../api/milk-data';
import { LookupsLog } from './lookups-log';
import { MilkDataView } from './milk-data-view';

/**
 * The Westlands view (operator §2): one tab per Westlands farm (WESTLANDS_FARMS), then the same
 * form with the Westlands prefix rule. A tab fills the supply number; any other number may be
 * typed, and the server refuses one that is not a Westlands farm's.
 */
function WestlandsData() {
  const client = useApiClient();
  const farms = useQuery(westlandsFarmsQuery(client));
  const [selected, setSelected] = useState(0);
  const list = farms.data ?? [];
  const current = list[selected];
  const onKey = (event: KeyboardEvent) => {
    if (list.length === 0) return;
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (selected + step + list.length) % list.length;
    setSelected(next);
    document.getElementById(`westlands-tab-${next}`)?.focus();
  };
  return (
    <div>
      {farms.isPending && <p className="page__note">Loading…</p>}
      {farms.data && list.length === 0 && <p className="page__note">No Westlands farms.</p>}
      {list.length > 0 && (
        <div className="milk-quality__tabs" role="tablist" aria-label="Westlands farms" onKeyDown={onKey}>
          {list.map((f, i) => (
            <button
              key={f._id}
              id={`westlands-tab-${i}`}
              type="button"
              role="tab"
              className="milk-quality__tab"
              aria-selected={i === selected}
              aria-controls="westlands-panel"
              tabIndex={i === selected ? 0 : -1}
              onClick={() => setSelected(i)}
            >
              {f.fonterra_id}
            </button>
          ))}
        </div>
      )}
      {farms.data && (
        <div id="westlands-panel" role={current ? 'tabpanel' : undefined} aria-labelledby={current ? `westlands-tab-${selected}` : undefined}>
          <MilkDataView key={current?._id ?? 'none'} view="westlands" initialSupplyNumber={current?.fonterra_id ?? ''} />
        </div>
      )}
      <LookupsLog />
    </div>
  );
}

/** /dts/westlands/data in the Westlands shell. */
export function WestlandsDataPage() {
  return <WestlandsData />;
}

/** /dts/westlandsdata in the main shell (operator §2 'Westlands data'). */
export function WestlandsDataMainPage() {
  return (
    <section className="page">
      <h1 className="page__title">Westlands Data</h1>
      <WestlandsData />
    </section>
  );
}
