import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useUrlText } from '../../../lib/use-url-text';
import { ALERT_WORDS } from '@shared/alerts/messages';
import type { NotificationType } from '@shared/alerts/types';
import { BUFFER_MAX_MINUTES, DAIRY_FILTERS, FARM_FLAGS, FINANCE_FILTERS, PACKAGE_FILTERS, type FinanceFilter, type PackageFilter, MILKING_WINDOW_HEADER, MSG_SUCCESS, type AdminFarm, type DairyFilter, type DeadLetter, type FarmFlag } from '@shared/api/actions/admin-farm';
import { AuditList } from '../../../components/audit-list';
import { DataTable, type Column } from '../../../components/data-table';
import { useSnackbar } from '../../../components/snackbar';
import { PageNav } from '../../../components/page-nav';
import { useApiClient } from '../../../lib/api-client-provider';
import type { ApiError } from '../../../lib/api-error';
import { formatDay, formatWhen } from '../../../lib/time-format';
import { billingOutput, deadLettersQuery, farmAuditQuery, farmListKey, farmListQuery, farmSettingsQuery, importSettings, setFarmFlag, type FarmFilters } from '../api/farms';
import { farmPageCount, farmPageOf, lastMonth, saveText } from '../utils/farms';
import './farms.css';

type FarmListAnswer = { listFarm: AdminFarm[] };

/** A filter of the farm calls (operator §7): its first choice, 'ALL', is sent blank, which the server reads as all. */
function FilterSelect<T extends string>({ label, value, choices, onChange }: { readonly label: string; readonly value: T | ''; readonly choices: readonly T[]; readonly onChange: (v: T | '') => void }) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        {choices.map((c) => (
          <option key={c} value={c === 'ALL' ? '' : c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}

/** /dts/farms (operator §2 Admin farms): Admin only; the server decides, the flags for its list of ids. */
export function FarmsPage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [search] = useSearchParams();
  const [dairy, setDairy] = useState<DairyFilter | ''>('');
  const [farmType, setFarmType] = useState<PackageFilter | ''>('');
  const [finance, setFinance] = useState<FinanceFilter | ''>('');
  // ?supply= (the operator search's farm match) fills the supply-number filter.
  const [supply, setSupply] = useUrlText('supply');
  const [page, setPage] = useState(1);
  const filters: FarmFilters = { dairy_current: dairy, farm_type: farmType, farm_id: useDeferredValue(supply.trim()), farm_finance: finance };
  const list = useQuery(farmListQuery(client, filters));
  const settings = useQuery(farmSettingsQuery(client, filters));
  const audit = useQuery(farmAuditQuery(client, filters));
  const deadLetters = useQuery(deadLettersQuery(client, filters));

  const flag = useMutation({
    mutationFn: ({ farm, field, value }: { farm: AdminFarm; field: FarmFlag; value: boolean }) => setFarmFlag(client, filters, farm._id, field, value),
    // operator §4: the checkbox shows the new value at once; the list is read again after. A read
    // of the list still in flight is cancelled first, so its older answer cannot undo the click.
    onMutate: ({ farm, field, value }) => {
      void queryClient.cancelQueries({ queryKey: farmListKey(filters) });
      queryClient.setQueryData<FarmListAnswer>(farmListKey(filters), (old) => old && { ...old, listFarm: old.listFarm.map((f) => (f._id === farm._id ? { ...f, [field]: value } : f)) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin-farms'] }),
  });

  const farms = list.data?.listFarm ?? [];
  const pages = farmPageCount(farms.length);
  const shownPage = Math.min(page, pages);

  return (
    <section className="farms">
      <h1 className="page__title">Farms</h1>
      <div className="farms__tools">
        <FilterSelect label="Dairy company" value={dairy} choices={DAIRY_FILTERS} onChange={(v) => (setDairy(v), setPage(1))} />
        <FilterSelect label="Package" value={farmType} choices={PACKAGE_FILTERS} onChange={(v) => (setFarmType(v), setPage(1))} />
        <FilterSelect label="Finance package" value={finance} choices={FINANCE_FILTERS} onChange={(v) => (setFinance(v), setPage(1))} />
        <input
          type="search"
          aria-label="Supply number"
          placeholder="Supply number"
          value={supply}
          onChange={(e) => {
            setSupply(e.target.value);
            setPage(1);
          }}
        />
        {search.has('billing') && <BillingExport onExport={(month) => billingOutput(client, filters, month)} onError={() => snackbar.show(undefined, 'error')} />}
      </div>
      {!list.data ? (
        <p className="page__note">{list.isError ? 'The farms could not be loaded.' : 'Loading…'}</p>
      ) : (
        <>
          <p className="page__note">
            {farms.length} {farms.length === 1 ? 'farm' : 'farms'}
          </p>
          <ul className="farms__cards" aria-label="Farms">
            {farmPageOf(farms, shownPage).map((f) => (
              <FarmCard key={f._id} farm={f} editable={list.data.flags_editable} busy={flag.isPending && flag.variables.farm._id === f._id} onFlag={(field, value) => flag.mutate({ farm: f, field, value })} />
            ))}
          </ul>
          {farms.length === 0 && <p className="page__note">No farms match.</p>}
          <PageNav className="farms__pages" label="Farm pages" page={shownPage} pages={pages} onPage={setPage} />
        </>
      )}
      <section className="farms__settings" aria-labelledby="farm-settings-title">
        <h2 id="farm-settings-title" className="farms__title">
          Farm settings
        </h2>
        <SettingsImport
          onImport={(file, onError) => importSettings(client, filters, file, onError)}
          onSuccess={async () => {
            snackbar.show(MSG_SUCCESS, 'success');
            await queryClient.invalidateQueries({ queryKey: ['admin-farms'] });
          }}
        />
        {!settings.data ? (
          <p className="page__note">{settings.isError ? 'The farm settings could not be loaded.' : 'Loading…'}</p>
        ) : settings.data.length === 0 ? (
          <p className="page__note">No milking windows imported yet.</p>
        ) : (
          <table className="farms__table" aria-labelledby="farm-settings-title">
            <thead>
              <tr>
                <th scope="col">Farm</th>
                <th scope="col">Buffer Duration</th>
                <th scope="col">End Of Milking</th>
              </tr>
            </thead>
            <tbody>
              {settings.data.map((r) => (
                <tr key={r.farm_id}>
                  <td>{r.farm}</td>
                  <td>{r.buffer_duration} min</td>
                  <td>{r.end_of_milking}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <DeadLetters letters={deadLetters.data} failed={deadLetters.isError} />
      <AuditList entries={audit.data} failed={audit.isError} />
    </section>
  );
}

/** The undelivered alerts (decision 019's dead letters): when given up, where, what, to whom, and why. */
const DEAD_LETTER_COLUMNS: readonly Column<DeadLetter>[] = [
  { header: 'Given up', cell: (d) => formatWhen(d.settled_at, d.timezone) },
  { header: 'Farm', cell: (d) => d.farm },
  { header: 'Alert', cell: (d) => (d.type === undefined ? d.alert_id : `${ALERT_WORDS[d.type as NotificationType] ?? d.type}${d.vat_number === undefined ? '' : `, Vat ${d.vat_number}`}`) },
  {
    header: 'To',
    cell: (d) => (
      <>
        {d.channel === 'sms' ? 'Text' : 'Email'} to {d.recipient}
        {d.fallback ? (d.channel === 'sms' ? ' (emailed instead)' : ' (texted instead)') : ''}
      </>
    ),
  },
  { header: 'Attempts', cell: (d) => d.attempts },
  { header: 'Last error', cell: (d) => d.last_error },
];

/** Alert deliveries that failed for good: the operators' view of what never reached a farmer. */
function DeadLetters({ letters, failed }: { readonly letters: readonly DeadLetter[] | undefined; readonly failed: boolean }) {
  return (
    <section className="farms__settings" aria-labelledby="dead-letters-title">
      <h2 id="dead-letters-title" className="farms__title">
        Undelivered alerts
      </h2>
      {!letters ? (
        <p className="page__note">{failed ? 'The undelivered alerts could not be loaded.' : 'Loading…'}</p>
      ) : letters.length === 0 ? (
        <p className="page__note">Every alert was delivered.</p>
      ) : (
        <div className="farms__scroll">
          <DataTable className="farms__table" aria-labelledby="dead-letters-title" columns={DEAD_LETTER_COLUMNS} rows={letters} rowKey={(d) => `${d.alert_id}|${d.recipient}|${d.channel}`} />
        </div>
      )}
    </section>
  );
}

function FarmCard({ farm: f, editable, busy, onFlag }: { readonly farm: AdminFarm; readonly editable: boolean; readonly busy: boolean; readonly onFlag: (field: FarmFlag, value: boolean) => void }) {
  const titleId = `farm-${f._id}`;
  return (
    <li className="farm-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="farm-card__title">
        {f.fonterra_id}
      </h2>
      {f.name && <p className="farm-card__name">{f.name}</p>}
      <dl className="farm-card__facts">
        <dt>Dairy</dt>
        <dd>{f.supplier}</dd>
        <dt>Package</dt>
        <dd>{f.package}</dd>
        <dt>Install package</dt>
        <dd>{f.install_packege}</dd>
        <dt>Number of vats</dt>
        <dd>{f.install_numVats}</dd>
        <dt>Install date</dt>
        <dd>{f.install_date ? formatDay(f.install_date) : '–'}</dd>
        <dt>Devices</dt>
        <dd>{f.devices.length ? f.devices.map((d) => `${d.name} (Vat ${d.vat_number})`).join(', ') : 'None'}</dd>
      </dl>
      {editable && (
        <div className="farm-card__flags" role="group" aria-label={`Flags of ${f.fonterra_id}`}>
          {FARM_FLAGS.map((flag) => (
            <label key={flag.field}>
              <input type="checkbox" checked={f[flag.field]} disabled={busy} onChange={(e) => onFlag(flag.field, e.target.checked)} /> {flag.label}
            </label>
          ))}
        </div>
      )}
    </li>
  );
}

/**
 * The billing export (operator §2: the button exists but is hidden): shown only with ?billing in
 * the address, for whoever runs billing; it saves the month's billing codes as CSV.
 */
function BillingExport({ onExport, onError }: { readonly onExport: (month: string) => Promise<{ filename: string; csv: string }>; readonly onError: () => void }) {
  const [month, setMonth] = useState(() => lastMonth(new Date()));
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const out = await onExport(month);
      saveText(out.csv, out.filename);
    } catch {
      onError();
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="farms__billing">
      <label>
        Billing month <input type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
      </label>
      <button type="button" className="button" disabled={busy || !month} onClick={() => void run()}>
        Billing export
      </button>
    </span>
  );
}

/**
 * The milking-window CSV import (operator §2; format in docs/architecture.md): the file goes as a
 * multipart upload; a refusal lists the rows at fault here, since nothing was imported.
 */
function SettingsImport({ onImport, onSuccess }: { readonly onImport: (file: File, onError: (e: ApiError) => void) => Promise<unknown>; readonly onSuccess: () => Promise<void> }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<readonly string[]>([]);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!file) return;
    setBusy(true);
    setProblems([]);
    let refusal: readonly string[] = [];
    try {
      await onImport(file, (e) => {
        const m = e.userMessage;
        refusal = m === undefined ? ['The file could not be imported.'] : typeof m === 'string' ? [m] : m;
      });
      setFile(null);
      if (input.current) input.current.value = '';
      await onSuccess();
    } catch {
      setProblems(refusal.length ? refusal : ['The file could not be imported.']);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="farms__import">
      <p className="page__note">
        Import milking windows from a CSV file (at most 1 MB). The first line is <code>{MILKING_WINDOW_HEADER.join(',')}</code>; then one line per farm: its supply number,
        the buffer duration in whole minutes (0 to {BUFFER_MAX_MINUTES}), and the end of milking as the farm&apos;s local time, HH:mm on a 24-hour clock, e.g.{' '}
        <code>31245,30,08:30</code>. Every row is checked first: if any row is wrong, nothing is imported.
      </p>
      <label>
        Milking-window CSV{' '}
        <input ref={input} type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </label>
      <button type="button" className="button" disabled={!file || busy} onClick={() => void run()}>
        Import
      </button>
      {problems.length > 0 && (
        <div className="farms__problems" role="alert">
          <p>Nothing was imported:</p>
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
