import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApiClient } from '../../../lib/api-client-provider';
import { getSession } from '../../../lib/auth-session';
import type { Role } from '@shared/roles';
import { formatWhen } from '../../../lib/time-format';
import { lookupsLogQuery } from '../api/milk-data';

const VIEW_NAMES = { milkquality: 'Milk Quality', westlands: 'Westlands' } as const;

function LookupsTable() {
  const client = useApiClient();
  const { data, error, isPending } = useQuery(lookupsLogQuery(client));
  if (isPending) return <p className="page__note">Loading…</p>;
  if (error) return <p className="milk-quality__problem">The lookups could not be loaded.</p>;
  if (data.length === 0) return <p className="page__note">No lookups yet.</p>;
  return (
    <div className="milk-quality__table-wrap">
      <table className="milk-quality__table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">View</th>
            <th scope="col">Supply Number</th>
            <th scope="col">Vat</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
          </tr>
        </thead>
        <tbody>
          {data.map((l) => (
            <tr key={`${l.at}-${l.user_id}-${l.farm_id}`}>
              <td>{formatWhen(l.at, undefined)}</td>
              <td>{l.email ?? l.username}</td>
              <td>{VIEW_NAMES[l.view]}</td>
              <td>{l.fonterra_id}</td>
              <td>{l.vat_number}</td>
              <td>{l.fromDate}</td>
              <td>{l.toDate}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Who looked at which farm's milk data (issue 23: every lookup is kept and visible to Admins).
 * Shown to Admins only; the list loads when opened.
 */
export function LookupsLog() {
  // The role comes from the signed-in session's groups, read afresh on each visit; the server
  // answers MILK_DATA_LOOKUPS to Admins only whatever this shows.
  const [role, setRole] = useState<Role>();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    void getSession().then((s) => {
      if (live) setRole(s?.role);
    });
    return () => {
      live = false;
    };
  }, []);
  if (role !== 'Admin') return null;
  return (
    <details className="milk-quality__lookups" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Lookups log</summary>
      {open && <LookupsTable />}
    </details>
  );
}
