import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { XView } from '../../../components/charts/vat-line-chart';
import { ZoomControl } from '../../../components/charts/zoom-control';
import '../../../components/charts/charts.css';
import { useApiClient } from '../../../lib/api-client-provider';
import { saveFile } from '../../../lib/save-file';
import { formatWhen } from '../../../lib/time-format';
import { lookupErrorText, milkDataQuery, type MilkData, type MilkLookup, type MilkView } from '../api/milk-data';
import { buildMilkCsv, milkCsvName } from '../utils/milk-csv';
import { checkMilkForm, REQUIRED_FIELD, type MilkField, type MilkFormValues } from '../utils/milk-form';
import { MilkCharts, SHADE, type Shading } from './milk-charts';
import './milk-quality.css';

const saveCsv = (data: MilkData) => saveFile(buildMilkCsv(data), milkCsvName(data), 'text/csv;charset=utf-8');

const LABELS: Record<MilkField, string> = { supplyNumber: 'Supply Number', vatNumber: 'Vat Number', fromDate: 'From', toDate: 'To' };

const ACTIVITIES = [
  ['lastStorage', 'Last Storage'],
  ['lastCollection', 'Last Collection'],
  ['lastMilking', 'Last Milking'],
  ['lastCIP', 'Last CIP'],
] as const;

/** The last storage, collection, milking and CIP of the range with their start and end, in the farm's time. */
function LastActivities({ data }: { readonly data: MilkData }) {
  const when = (iso: string) => formatWhen(iso, data.farm.timezone);
  return (
    <dl className="milk-quality__activities" aria-label="Last activities">
      {ACTIVITIES.map(([key, label]) => {
        const a = data[key];
        return (
          <div key={key} className="milk-quality__activity">
            <dt>{label}</dt>
            <dd>{a ? `${when(a.activity.start.published_at)} – ${a.activity.end ? when(a.activity.end.published_at) : 'ongoing'}` : 'None in this range'}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function Toggle({ label, checked, onChange, colour }: { readonly label: string; readonly checked: boolean; readonly onChange: (on: boolean) => void; readonly colour: string }) {
  return (
    <label className="milk-quality__toggle">
      <input type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span className="milk-quality__swatch" style={{ background: colour }} aria-hidden="true" />
      {label}
    </label>
  );
}

interface MilkDataViewProps {
  readonly view: MilkView;
  /** The Westlands tab's farm: the supply number to start with. */
  readonly initialSupplyNumber?: string;
}

/**
 * The form, toggles and charts of the Milk Quality and Westlands views (operator §2): supply
 * number, vat number, From and To, View and Download; missing fields marked and nothing sent (§5).
 */
export function MilkDataView({ view, initialSupplyNumber = '' }: MilkDataViewProps) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const id = useId();
  const [values, setValues] = useState<MilkFormValues>({ supplyNumber: initialSupplyNumber, vatNumber: '', fromDate: '', toDate: '' });
  const [missing, setMissing] = useState<readonly MilkField[]>([]);
  const [lookup, setLookup] = useState<MilkLookup>();
  const [shading, setShading] = useState<Shading>({ agitator: false, battery: false, outage: false });
  const [zoom, setZoom] = useState<XView>();
  const [downloadError, setDownloadError] = useState<unknown>();
  const [downloading, setDownloading] = useState(false);
  const [formProblem, setFormProblem] = useState<string>();
  const query = useQuery({ ...milkDataQuery(client, view, lookup ?? { supplyNumber: '', vatNumber: 0, fromDate: '', toDate: '' }), enabled: lookup !== undefined });

  const checked = () => {
    const result = checkMilkForm(values, view);
    setMissing(result.ok ? [] : result.missing);
    setFormProblem(result.ok ? undefined : result.message);
    return result.ok ? result.lookup : undefined;
  };
  const show = (event: FormEvent) => {
    event.preventDefault();
    const next = checked();
    if (!next) return;
    setDownloadError(undefined);
    // A redraw starts zoomed out (operator §2).
    setZoom(undefined);
    setLookup(next);
  };
  const download = async () => {
    const next = checked();
    if (!next) return;
    setDownloadError(undefined);
    setDownloading(true);
    try {
      saveCsv(await queryClient.fetchQuery(milkDataQuery(client, view, next)));
    } catch (err) {
      setDownloadError(err);
    } finally {
      setDownloading(false);
    }
  };
  const field = (name: MilkField, input: { type: string; inputMode?: 'numeric' | 'text'; placeholder?: string }) => {
    const invalid = missing.includes(name);
    return (
      <label className="milk-quality__field">
        {LABELS[name]}
        <input
          {...input}
          value={values[name]}
          onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
          aria-invalid={invalid}
          aria-describedby={invalid ? `${id}-${name}-error` : undefined}
        />
        {invalid && (
          <span className="milk-quality__required" id={`${id}-${name}-error`}>
            {REQUIRED_FIELD}
          </span>
        )}
      </label>
    );
  };
  const error = query.error ?? downloadError;
  const data = lookup ? query.data : undefined;

  return (
    <div className="milk-quality">
      <form className="milk-quality__form" onSubmit={show} noValidate aria-label={view === 'westlands' ? 'Westlands data' : 'Milk quality data'}>
        {field('supplyNumber', { type: 'text', placeholder: view === 'westlands' ? 'e.g. WES118' : 'e.g. FON12345' })}
        {field('vatNumber', { type: 'text', inputMode: 'numeric' })}
        {field('fromDate', { type: 'date' })}
        {field('toDate', { type: 'date' })}
        <div className="milk-quality__buttons">
          <button type="submit" className="button button--primary">
            View
          </button>
          <button type="button" className="button" onClick={() => void download()} disabled={downloading}>
            Download
          </button>
        </div>
      </form>
      <fieldset className="milk-quality__toggles">
        <legend className="milk-quality__legend">Show</legend>
        <Toggle label="Agitator Stopped" colour={SHADE.agitator} checked={shading.agitator} onChange={(on) => setShading((s) => ({ ...s, agitator: on }))} />
        <Toggle label="On Battery" colour={SHADE.battery} checked={shading.battery} onChange={(on) => setShading((s) => ({ ...s, battery: on }))} />
        <Toggle label="Data Outage" colour={SHADE.outage} checked={shading.outage} onChange={(on) => setShading((s) => ({ ...s, outage: on }))} />
      </fieldset>
      {formProblem && (
        <p className="milk-quality__problem" role="alert">
          {formProblem}
        </p>
      )}
      {!formProblem && error !== null && error !== undefined && (
        <p className="milk-quality__problem" role="alert">
          {lookupErrorText(error)}
        </p>
      )}
      {lookup && query.isFetching && <p className="page__note">Loading…</p>}
      {data && !query.error && (
        <section className="milk-quality__result" aria-label={`${data.farm.fonterra_id} vat ${data.device.vat_number}`}>
          <p className="milk-quality__heading">
            {data.farm.fonterra_id}
            {data.farm.name ? ` (${data.farm.name})` : ''}, Vat {data.device.vat_number}: {data.points.toLocaleString('en-NZ')} readings
          </p>
          <LastActivities data={data} />
          <ZoomControl view={zoom} onReset={() => setZoom(undefined)} />
          {data.detailData.length === 0 && <p className="page__note">No readings in this range.</p>}
          <MilkCharts data={data} shading={shading} view={zoom} onView={setZoom} />
        </section>
      )}
    </div>
  );
}
