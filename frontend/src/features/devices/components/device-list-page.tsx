import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useUrlText } from '../../../lib/use-url-text';
import { Link } from 'react-router-dom';
import type { DeviceRow } from '@shared/api/actions/admin-device';
import { AuditList } from '../../../components/audit-list';
import { useSnackbar } from '../../../components/snackbar';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatTemperature } from '../../../lib/format';
import { formatWhen } from '../../../lib/time-format';
import { ApiError } from '../../../lib/api-error';
import { deviceAuditQuery, deviceListQuery, loadNames, setDeviceStatus } from '../api/devices';
import { devicePageCount, devicePageOf, farmLabel, levelBarOf, searchDevices, sortDevices, tempBarOf, type SortKey } from '../utils/fleet';
import { PageNav } from '../../../components/page-nav';
import { ValueBar } from './value-bar';
import './devices.css';

const COLUMNS: readonly { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'farm', label: 'Farm ID' },
  { key: 'lastSeen', label: 'Last Seen' },
  { key: 'level', label: 'Milk Level' },
  { key: 'vatTemp', label: 'Vat Temp' },
  { key: 'inletTemp', label: 'Inlet Temp' },
  { key: 'vibration', label: 'Vibration' },
  { key: 'os', label: 'Particle OS' },
  { key: 'state', label: 'State Machine' },
  { key: 'status', label: 'Active/Inactive' },
];

/** /dts/devices (operator §2 Device list): Admin and Installer; the server decides. */
export function DeviceListPage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [retired, setRetired] = useState<1 | 2>(1);
  // ?search= (the fleet overview's and the operator search's links) fills the box.
  const [search, setSearch] = useUrlText('search');
  const [sort, setSort] = useState<{ key: SortKey; direction: 'ascending' | 'descending' }>({ key: 'name', direction: 'ascending' });
  // Back to page 1 whenever the rows change order or membership (a new search, sort or list).
  const [paging, setPaging] = useState({ page: 1, of: '' });
  const list = useQuery(deviceListQuery(client, retired));
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['devices', 'list'] }), queryClient.invalidateQueries({ queryKey: ['devices', 'audit'] })]);
  const toggle = useMutation({ mutationFn: (d: DeviceRow) => setDeviceStatus(client, d._id, d.status === 1 ? 2 : 1), onSuccess: refresh });
  const names = useMutation({
    mutationFn: () => loadNames(client),
    onSuccess: async (r) => {
      snackbar.show(r.renamed.length ? `${r.renamed.length} device names loaded` : `Checked ${r.checked} devices: every name is current`, 'success');
      await refresh();
    },
  });

  const rows = useMemo(() => sortDevices(searchDevices(list.data ?? [], search, Date.now()), sort.key, sort.direction), [list.data, search, sort]);
  const sortBy = (key: SortKey) => setSort((s) => ({ key, direction: s.key === key && s.direction === 'ascending' ? 'descending' : 'ascending' }));
  const shownOf = `${retired} ${search} ${sort.key} ${sort.direction}`;
  const pages = devicePageCount(rows.length);
  const page = paging.of === shownOf ? Math.min(paging.page, pages) : 1;
  const shown = devicePageOf(rows, page);

  return (
    <section className="devices">
      <header className="devices__bar">
        <h1 className="page__title">Devices</h1>
        <div className="devices__switch" role="group" aria-label="Devices shown">
          <button type="button" aria-pressed={retired === 1} onClick={() => setRetired(1)}>
            Active
          </button>
          <button type="button" aria-pressed={retired === 2} onClick={() => setRetired(2)}>
            Inactive
          </button>
        </div>
      </header>
      <div className="devices__tools">
        <input type="search" aria-label="Search devices" placeholder="Search: name, farm, or down / boards / sensors" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="button" className="button" disabled={names.isPending} onClick={() => names.mutate()}>
          Load name from Particle
        </button>
      </div>
      {!list.data ? (
        <p className="page__note">{list.isError ? 'The devices could not be loaded.' : 'Loading…'}</p>
      ) : (
        <div className="devices__scroll">
          <table className="devices__table">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c.key} scope="col" aria-sort={sort.key === c.key ? sort.direction : 'none'}>
                    <button type="button" onClick={() => sortBy(c.key)}>
                      {c.label}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((d) => (
                <DeviceLine key={d._id} device={d} onToggle={() => toggle.mutate(d)} busy={toggle.isPending && toggle.variables?._id === d._id} />
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p className="page__note">No devices match.</p>}
        </div>
      )}
      {list.data && pages > 1 && <PageNav className="devices__pages" label="Devices pages" page={page} pages={pages} onPage={(p) => setPaging({ page: p, of: shownOf })} />}
      <DeviceAudit />
    </section>
  );
}

/** The fleet's changes under the list, a page at a time (Admin only: an Installer's page leaves it out). */
function DeviceAudit() {
  const client = useApiClient();
  // The cursors of the pages shown before this one: Older pushes, Newer pops.
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const audit = useQuery(deviceAuditQuery(client, cursors.at(-1)));
  if (audit.error instanceof ApiError && audit.error.status === 403) return null;
  const next = audit.data?.cursor;
  const pager =
    cursors.length > 0 || next ? (
      <div className="devices__pager">
        <button type="button" className="button" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer changes
        </button>
        <button type="button" className="button" disabled={!next} onClick={() => next && setCursors((c) => [...c, next])}>
          Older changes
        </button>
      </div>
    ) : null;
  return <AuditList entries={audit.data?.entries} failed={audit.isError} footer={pager} />;
}

function DeviceLine({ device: d, onToggle, busy }: { readonly device: DeviceRow; readonly onToggle: () => void; readonly busy: boolean }) {
  const v = d.last_updated;
  return (
    <tr>
      <td>
        <Link to={paths.device.to(d._id)}>{d.name}</Link>
        {d.status === 2 && d.retired_messages > 0 && <span className="devices__warning">receiving data while retired</span>}
      </td>
      <td>{farmLabel(d)}</td>
      <td>{v ? formatWhen(v.published_at, d.timezone) : '–'}</td>
      <td>
        <span className="devices__value">{typeof v?.milk_level === 'number' ? `${Math.round(v.milk_level)} mm` : '–'}</span>
        <ValueBar bar={levelBarOf(v?.milk_level)} label={`Milk level of ${d.name}`} />
      </td>
      <td>
        <span className="devices__value">{formatTemperature(v?.temp1 ?? null)}</span>
        <ValueBar bar={tempBarOf(v?.temp1)} label={`Vat temperature of ${d.name}`} />
      </td>
      <td>
        <span className="devices__value">{formatTemperature(v?.temp2 ?? null)}</span>
        <ValueBar bar={tempBarOf(v?.temp2)} label={`Inlet temperature of ${d.name}`} />
      </td>
      <td>{typeof v?.shaft_rpm === 'number' ? `${Math.round(v.shaft_rpm)} rpm` : '–'}</td>
      <td>{d.system_version ?? '–'}</td>
      <td>{v?.state_machine ?? '–'}</td>
      <td>
        <label className="devices__toggle">
          <input type="checkbox" role="switch" checked={d.status === 1} disabled={busy} onChange={onToggle} aria-label={`${d.name} active`} />
          {d.status === 1 ? 'Active' : 'Inactive'}
        </label>
      </td>
    </tr>
  );
}
