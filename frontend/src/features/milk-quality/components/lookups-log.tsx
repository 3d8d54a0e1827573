import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApiClient } from '../../../lib/api-client-provider';
import { getSession } from '../../../lib/auth-session';
import type { Role } from '@shared/roles';
import { DataTable, type Column } from '../../../components/data-table';
import { formatWhen } from '../../../lib/time-format';
import type { MilkLookup } from '@shared/api/actions/milk-quality';
import { lookupsLogQuery } from '../api/milk-data';

const VIEW_NAMES = { milkquality: 'Milk Quality', westlands: 'Westlands' } as const;

const LOOKUP_COLUMNS: readonly Column<MilkLookup>[] = [
  { header: 'When', cell: (l) => formatWhen(l.at, undefined) },
  { header: 'Who', cell: (l) => l.email ?? l.username },
  { header: 'View', cell: (l) => VIEW_NAMES[l.view] },
  { header: 'Supply Number', cell: (l) => l.fonterra_id },
  { header: 'Vat', cell: (l) => l.vat_number },
  { header: 'From', cell: (l) => l.fromDate },
  { header: 'To', cell: (l) => l.toDate },
];

function LookupsTable() {
  const client = useApiClient();
  const { data, error, isPending } = useQuery(lookupsLogQuery(client));
  if (isPending) return <p className="page__note">Loading…</p>;
  if (error) return <p className="milk-quality__problem">The lookups could not be loaded.</p>;
  if (data.length === 0) return <p className="page__note">No lookups yet.</p>;
  return (
    <div className="milk-quality__table-wrap">
      <DataTable className="milk-quality__table" columns={LOOKUP_COLUMNS} rows={data} rowKey={(l) => `${l.at}-${l.user_id}-${l.farm_id}`} />
    </div>
  );
}

/**
 * Who looked at which farm's milk data (every lookup is kept and visible to Admins).
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
