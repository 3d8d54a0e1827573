import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { WATCHMAN_PAGE_SIZE } from '@shared/api/actions/operator';
import { WATCHMAN_DEFAULTS } from '@shared/constants';
import type { WatchmanCase, WatchmanRun } from '@shared/watchman/records';
import { camelOf, checkWatchmanForm, WATCHMAN_LABELS, WATCHMAN_NUMBER_KEYS, WATCHMAN_SWITCHES, type WatchmanSettings } from '@shared/watchman/settings';
import { AuditList } from '../../../components/audit-list';
import { NoticeDialog } from '../../../components/dialog';
import { ScrollRegion } from '../../../components/scroll-region';
import { paths } from '../../../config/paths';
import { errorTextOf } from '../../../lib/api-error';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatWhen } from '../../../lib/time-format';
import { saveWatchmanSettings, watchmanActivityQuery, watchmanSettingsQuery } from '../api/watchman';
import './watchman.css';

type Key = keyof WatchmanSettings;
type Tab = 'activity' | 'settings';

/** The run table's columns: operator §3's 18 fields, in its order. */
const RUN_COLUMNS: readonly { key: keyof WatchmanRun; label: string }[] = [
  { key: 'started_at', label: 'Started' },
  { key: 'finished_at', label: 'Finished' },
  { key: 'farms_total', label: 'Farms' },
  { key: 'farms_milking', label: 'Milking' },
  { key: 'farms_dry', label: 'Dry' },
  { key: 'farms_okay', label: 'Okay' },
  { key: 'farms_faulty', label: 'Faulty' },
  { key: 'syncs_turned_on', label: 'Syncs turned on' },
  { key: 'syncs_turned_off', label: 'Syncs turned off' },
  { key: 'syncs_on', label: 'Syncs on' },
  { key: 'syncs_off', label: 'Syncs off' },
  { key: 'vats_within_spec', label: 'Vats within spec' },
  { key: 'vats_out_of_spec', label: 'Vats out of spec' },
  { key: 'cases_created', label: 'Cases created' },
  { key: 'cases_closed', label: 'Cases closed' },
  { key: 'error_fonterra_api', label: 'Fonterra API errors' },
  { key: 'error_milog_api', label: 'MiLog API errors' },
  { key: 'error_particle_api', label: 'Particle API errors' },
];

const CHECK_LABELS: Record<string, string> = {
  signal: 'Signal',
  temp_probe_range: 'Temperature probe range',
  temp_accuracy: 'Temperature accuracy',
  plate_cooling: 'Plate cooling',
  agitator_probe: 'Agitator probe',
  data_gaps: 'Data gaps',
  calibration: 'Calibration',
};

/**
 * /dts/watchman (operator §2 Watchman; Admin and Installer, §6; the server decides): the Activity
 * tab lists the runs newest first with the open cases per farm, the Settings tab edits every §3
 * setting with §5's rules and Save Changes, and a dialog says Success or Error (§8).
 */
export function WatchmanPage() {
  const [tab, setTab] = useState<Tab>('activity');
  return (
    <section className="page watchman">
      <h1 className="page__title">Watchman</h1>
      <div className="watchman__tabs" role="tablist">
        {(['activity', 'settings'] as const).map((t) => (
          <button key={t} type="button" role="tab" className="button watchman__tab" aria-selected={tab === t} onClick={() => setTab(t)}>
            {t === 'activity' ? 'Activity' : 'Settings'}
          </button>
        ))}
      </div>
      {tab === 'activity' ? <ActivityTab /> : <SettingsTab />}
    </section>
  );
}

function ActivityTab() {
  const client = useApiClient();
  const [page, setPage] = useState(0);
  const activity = useQuery(watchmanActivityQuery(client, page));
  if (activity.isPending) return <p className="page__note">Loading...</p>;
  if (activity.isError) return <p className="watchman__error" role="alert">{errorTextOf(activity.error, 'An error occurred')}</p>;
  const { runs, count, open_cases, settings_changes } = activity.data;
  const pages = Math.max(1, Math.ceil(count / WATCHMAN_PAGE_SIZE));
  const byFarm = new Map<string, WatchmanCase[]>();
  for (const c of open_cases) byFarm.set(c.farm_id, [...(byFarm.get(c.farm_id) ?? []), c]);
  return (
    <>
      <div className="card">
        <h2>Open cases</h2>
        {byFarm.size === 0 && <p className="page__note">No open cases.</p>}
        {[...byFarm.values()].map((cases) => {
          const farm = cases[0] as WatchmanCase;
          return (
            <details key={farm.farm_id} className="watchman__case">
              <summary>
                {farm.fonterra_id}: {cases.length} open {cases.length === 1 ? 'case' : 'cases'}
              </summary>
              <ul>
                {cases.map((c) => (
                  <li key={`${c.vat}#${c.check}`}>
                    Vat {c.vat} · {CHECK_LABELS[c.check] ?? c.check} · opened {formatWhen(c.opened_at, c.timezone)} · {c.evidence} ·{' '}
                    <Link to={paths.device.to(c.device_id)}>Device</Link>
                  </li>
                ))}
              </ul>
            </details>
          );
        })}
      </div>
      <ScrollRegion className="card watchman__table-wrap" label="Watchman runs, scrollable">
        <table className="watchman__table" aria-label="Watchman runs">
          <thead>
            <tr>
              {RUN_COLUMNS.map((c) => (
                <th key={c.key}>{c.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r._id}>
                {RUN_COLUMNS.map((c) => {
                  const v = r[c.key];
                  // Operator times have no farm: the operator's own clock (lib/time-format.ts).
                  const text = c.key === 'started_at' || c.key === 'finished_at' ? (v ? formatWhen(String(v), undefined) : r.outcome === 'running' ? 'Running' : '') : String(v);
                  return <td key={c.key}>{c.key === 'finished_at' && r.outcome === 'stopped' ? `${text} (stopped)` : text}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {runs.length === 0 && <p className="page__note">No runs yet.</p>}
        <div className="watchman__paging">
          <button type="button" className="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span>
            Page {page + 1} of {pages}
          </span>
          <button type="button" className="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </div>
      </ScrollRegion>
      <AuditList title="Settings changes" entries={settings_changes} failed={false} />
    </>
  );
}

const formOf = (s: WatchmanSettings): Record<Key, string | boolean> =>
  Object.fromEntries((Object.keys(WATCHMAN_DEFAULTS) as Key[]).map((k) => [k, typeof s[k] === 'boolean' ? s[k] : String(s[k])])) as Record<Key, string | boolean>;

function SettingsTab() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const settings = useQuery(watchmanSettingsQuery(client));
  const [form, setForm] = useState<Record<Key, string | boolean> | undefined>(undefined);
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [result, setResult] = useState<'Success' | 'Error' | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (settings.data && !form) setForm(formOf(settings.data.settings));
  }, [settings.data, form]);
  if (settings.isError) return <p className="watchman__error" role="alert">{errorTextOf(settings.error, 'An error occurred')}</p>;
  if (!form) return <p className="page__note">Loading...</p>;

  const save = async () => {
    const camel = Object.fromEntries((Object.keys(form) as Key[]).map((k) => [camelOf(k), form[k]]));
    const checked = checkWatchmanForm(camel);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = await saveWatchmanSettings(client, camel);
      setResult(answer === 'success' ? 'Success' : 'Error');
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['watchman', 'settings'] }), queryClient.invalidateQueries({ queryKey: ['watchman', 'activity'] })]);
    } catch {
      setResult('Error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="card">
      <form
        className="watchman__fields"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {WATCHMAN_SWITCHES.filter((k) => k === 'on_status').map((k) => (
          <label key={k} className="watchman__switch">
            <input type="checkbox" name={k} checked={form[k] === true} onChange={(e) => setForm({ ...form, [k]: e.target.checked })} /> {WATCHMAN_LABELS[k]}
          </label>
        ))}
        {WATCHMAN_NUMBER_KEYS.map((k) => (
          <div key={k} className="watchman__field">
            <label htmlFor={`watchman-${k}`}>{WATCHMAN_LABELS[k]}</label>
            <input
              id={`watchman-${k}`}
              name={k}
              inputMode="decimal"
              className={errors[k] ? 'watchman__input--error' : undefined}
              aria-invalid={errors[k] ? true : undefined}
              aria-describedby={errors[k] ? `watchman-${k}-error` : undefined}
              value={String(form[k])}
              onChange={(e) => setForm({ ...form, [k]: e.target.value })}
            />
            {errors[k] && (
              <span id={`watchman-${k}-error`} className="watchman__error">
                {errors[k]}
              </span>
            )}
          </div>
        ))}
        {WATCHMAN_SWITCHES.filter((k) => k !== 'on_status').map((k) => (
          <label key={k} className="watchman__switch">
            <input type="checkbox" name={k} checked={form[k] === true} onChange={(e) => setForm({ ...form, [k]: e.target.checked })} /> {WATCHMAN_LABELS[k]}
          </label>
        ))}
        <div>
          <button type="submit" className="button button--primary" disabled={saving}>
            Save Changes
          </button>
        </div>
      </form>
      {result && (
        <NoticeDialog title={result} onClose={() => setResult(undefined)} closeLabel="OK">
          <p>{result === 'Success' ? 'The Watchman settings were saved.' : 'The Watchman settings were not saved.'}</p>
        </NoticeDialog>
      )}
    </div>
  );
}
