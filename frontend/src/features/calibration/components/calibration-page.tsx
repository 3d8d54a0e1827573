import { useState } from 'react';
import type { CalibrationCollection } from '@shared/api/actions/dairy-company';
import { vatSettingsResultText } from '@shared/api/actions/dairy-company';
import {
  averageDiameter,
  calibrateRow,
  maxHeightFromRadar,
  radarAfterToHeight,
  settingsText,
  type CalibrationConfig,
  type CalibrationRow,
} from '@shared/calibration/formula';
import { useConfirm } from '../../../components/confirm-dialog';
import { Dialog } from '../../../components/dialog';
import { errorTextOf } from '../../../lib/api-error';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatWhen } from '../../../lib/time-format';
import { applyVatSettings, loadCollections, loadVatConfig } from '../api/calibration';
import './calibration.css';

/** Operator §2 and §8's words. */
const CONFIRM_CALIBRATION = 'Are you sure you want to submit this calibration';
const REQUIRED = 'Required Field';

type ConfigField = 'vatSize' | 'height' | 'diameter' | 'wedgeHeight' | 'volumeOffset';
const CONFIG_LABELS: Record<ConfigField, string> = { vatSize: 'Vat Size', height: 'Height', diameter: 'Diameter', wedgeHeight: 'Wedge Height', volumeOffset: 'Volume Offset' };

interface Row extends CalibrationRow {
  readonly source: CalibrationCollection;
}

const rowOf = (c: CalibrationCollection): Row => ({
  source: c,
  startRadar: c.start_adjust?.radar_distance ?? null,
  endRadar: c.end_adjust?.radar_distance ?? null,
  fonterraVolume: c.fonterra_volume,
  fonterraTemperature: c.fonterra_temperature,
  temperature: c.start.temp1,
  omit: c.omit,
});

const numberOf = (text: string): number | undefined => (text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));
const show = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/**
 * /dts/calibration (operator §2 Calibration, §4, §5, §8, §9; Admin and Installer): a vat's
 * collections beside the dairy company's dockets, the §4 calculation (shared/calibration/formula.ts)
 * and Apply, which stores the settings and pushes them to the unit.
 */
export function CalibrationPage() {
  const client = useApiClient();
  const confirm = useConfirm();
  const [supply, setSupply] = useState('');
  const [vat, setVat] = useState('');
  const [config, setConfig] = useState<Record<ConfigField, string>>({ vatSize: '', height: '', diameter: '', wedgeHeight: '', volumeOffset: '' });
  const [errors, setErrors] = useState<ReadonlySet<string>>(new Set());
  const [rows, setRows] = useState<Row[] | undefined>(undefined);
  /** The configuration the table's figures were computed with (loaded, or the last Recalculate). */
  const [calc, setCalc] = useState<CalibrationConfig | undefined>(undefined);
  const [showUnadjusted, setShowUnadjusted] = useState(false);
  const [hideOmitted, setHideOmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<string | undefined>(undefined);
  /** The farm's zone, from VAT_CONFIG: collection times are shown in it (§9). */
  const [timeZone, setTimeZone] = useState<string | undefined>(undefined);

  const supplyNumber = supply.trim().toUpperCase();
  const vatNumber = Number(vat.trim());
  const farmGiven = supplyNumber !== '' && vat.trim() !== '';
  const loaded = rows !== undefined;

  /** Flags the empty ones of `fields` (§5); true when none is empty. */
  const require = (fields: readonly ConfigField[]): boolean => {
    const missing = fields.filter((f) => numberOf(config[f]) === undefined);
    setErrors(new Set(missing));
    return missing.length === 0;
  };
  const configOf = (): CalibrationConfig => ({
    height: numberOf(config.height) ?? 0,
    diameter: numberOf(config.diameter) ?? 0,
    wedgeHeight: numberOf(config.wedgeHeight) ?? 0,
    volumeOffset: numberOf(config.volumeOffset) ?? 0,
  });

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setMessage(undefined);
    try {
      await what();
    } catch (err) {
      setMessage(errorTextOf(err, 'An error occurred'));
    } finally {
      setBusy(false);
    }
  };

  /** Loads the vat's stored configuration into the form and the calculation, and the farm's zone. */
  const fetchConfig = async () => {
    const c = await loadVatConfig(client, supplyNumber, vatNumber);
    setConfig({ vatSize: String(c.vat_size), height: String(c.vat_max_height), diameter: String(c.vat_diameter), wedgeHeight: String(c.wedgeHeight), volumeOffset: String(c.vat_volume_offset) });
    setCalc({ height: c.vat_max_height, diameter: c.vat_diameter, wedgeHeight: c.wedgeHeight, volumeOffset: c.vat_volume_offset });
    setTimeZone(c.timezone);
  };
  const loadConfig = () =>
    run(async () => {
      await fetchConfig();
      setErrors(new Set());
    });

  // Loading collections then loads the vat config (operator §4); shown newest first.
  const load = (amount: 'RECENT' | 'ALL') =>
    run(async () => {
      const list = await loadCollections(client, amount, supplyNumber, vatNumber);
      setRows([...list].reverse().map(rowOf));
      await fetchConfig();
    });

  const maxHeight = () => {
    const h = maxHeightFromRadar(rows ?? []);
    if (h !== undefined) setConfig((c) => ({ ...c, height: String(h) }));
  };
  const radarToHeight = () => {
    if (!require(['height'])) return;
    setRows((rs) => rs && radarAfterToHeight(rs, numberOf(config.height) ?? 0));
  };
  const diameterToAverage = () => {
    if (!calc) return;
    const d = averageDiameter(rows ?? [], calc);
    if (d !== undefined) setConfig((c) => ({ ...c, diameter: String(d) }));
  };
  const recalculate = () => {
    if (!require(['height', 'diameter', 'wedgeHeight', 'volumeOffset'])) return;
    setCalc(configOf());
  };
  const settings = () => ({ supplyNumber, vatNumber, vatSize: numberOf(config.vatSize) ?? 0, ...(({ height, diameter, wedgeHeight, volumeOffset }) => ({ height, diameter, wedgeHeight, volumeOffset }))(configOf()) });
  const apply = () => {
    if (!require(['vatSize', 'height', 'diameter', 'wedgeHeight', 'volumeOffset'])) return;
    confirm({
      title: CONFIRM_CALIBRATION,
      body: <p className="calibration__settings">{settingsText(settings())}</p>,
      okLabel: 'Submit',
      onOk: () => void run(async () => setResult(vatSettingsResultText(await applyVatSettings(client, settings())))),
      onCancel: () => undefined,
    });
  };

  const visible = (rows ?? []).map((r, i) => ({ r, i })).filter(({ r }) => (showUnadjusted || r.source.start_adjust !== null) && !(hideOmitted && r.omit));
  const toggleOmit = (i: number) => setRows((rs) => rs?.map((r, j) => (j === i ? { ...r, omit: !r.omit } : r)));
  const filled = Object.values(config).every((v) => numberOf(v) !== undefined);

  return (
    <section className="page calibration">
      <h1 className="page__title">Calibration</h1>
      <div className="card">
        <div className="calibration__fields">
          <label>
            Supply Number
            <input value={supply} placeholder="FON12345" onChange={(e) => setSupply(e.target.value.toUpperCase())} onBlur={() => setSupply((s) => s.trim())} />
          </label>
          <label>
            Vat Number
            <input value={vat} inputMode="numeric" onChange={(e) => setVat(e.target.value.toUpperCase())} onBlur={() => setVat((s) => s.trim())} />
          </label>
          {(Object.keys(CONFIG_LABELS) as ConfigField[]).map((f) => (
            <label key={f}>
              {CONFIG_LABELS[f]}
              <input type="number" value={config[f]} aria-invalid={errors.has(f)} onChange={(e) => setConfig((c) => ({ ...c, [f]: e.target.value }))} />
              {errors.has(f) && <span className="calibration__error">{REQUIRED}</span>}
            </label>
          ))}
        </div>
        <div className="calibration__buttons">
          <button type="button" className="button" disabled={!farmGiven || busy} onClick={() => void load('RECENT')}>Load Recent Collections</button>
          <button type="button" className="button" disabled={!farmGiven || busy} onClick={() => void load('ALL')}>Load All Collections</button>
          <button type="button" className="button" disabled={!farmGiven || busy} onClick={() => void loadConfig()}>Load Vat Config From Database</button>
          <button type="button" className="button" disabled={!loaded || busy} onClick={maxHeight}>Get Max Height From Radar</button>
          <button type="button" className="button" disabled={!loaded || busy} onClick={radarToHeight}>Set All Radar After To Height</button>
          <button type="button" className="button" disabled={!loaded || busy || !calc} onClick={diameterToAverage}>Set Diameter To Average</button>
          <button type="button" className="button" disabled={!loaded || busy} onClick={recalculate}>Recalculate Volumes</button>
          <button type="button" className="button button--primary" disabled={!farmGiven || busy} onClick={apply}>Apply Settings to Vat</button>
        </div>
        {message && <p className="calibration__error" role="alert">{message}</p>}
        {filled && farmGiven && (
          <p className="calibration__settings" aria-label="Vat settings">
            {settingsText(settings())}
          </p>
        )}
      </div>
      {rows && (
        <div className="card calibration__table-wrap">
          <table className="calibration__table">
            <thead>
              <tr>
                <th>
                  <label>
                    <input type="checkbox" checked={showUnadjusted} onChange={(e) => setShowUnadjusted(e.target.checked)} aria-label="Show unadjusted collections" /> Collection Start
                  </label>
                </th>
                <th>Radar Before</th>
                <th>Milk Before</th>
                <th>Volume Before</th>
                <th>Radar After</th>
                <th>Milk After</th>
                <th>Volume After</th>
                <th>Collection Volume</th>
                <th>Fonterra Volume</th>
                <th>Difference</th>
                <th>Diameter</th>
                <th>Collection Temp</th>
                <th>Fonterra Temp</th>
                <th>Difference</th>
                <th>
                  <label>
                    <input type="checkbox" checked={hideOmitted} onChange={(e) => setHideOmitted(e.target.checked)} aria-label="Hide omitted collections" /> Omit
                  </label>
                </th>
              </tr>
            </thead>
            <tbody>
              {visible.map(({ r, i }) => {
                const f = calc ? calibrateRow(r, calc) : undefined;
                return (
                  <tr key={r.source._id}>
                    <td>{formatWhen(r.source.start.published_at, timeZone)}</td>
                    <td>{show(r.startRadar)}</td>
                    <td>{show(f?.startLevel)}</td>
                    <td>{show(f?.startVolume)}</td>
                    <td>{show(r.endRadar)}</td>
                    <td>{show(f?.endLevel)}</td>
                    <td>{show(f?.endVolume)}</td>
                    <td>{show(f?.collectionVolume)}</td>
                    <td>{show(r.fonterraVolume)}</td>
                    <td className={f?.volumeRed ? 'calibration__red' : undefined} data-red={f?.volumeRed ? 'true' : 'false'}>{show(f?.volumeDifference)}</td>
                    <td>{show(f?.diameter)}</td>
                    <td>{show(r.temperature)}</td>
                    <td>{show(r.fonterraTemperature)}</td>
                    <td className={f?.temperatureRed ? 'calibration__red' : undefined} data-red={f?.temperatureRed ? 'true' : 'false'}>{show(f?.temperatureDifference)}</td>
                    <td>
                      <input type="checkbox" checked={r.omit} onChange={() => toggleOmit(i)} aria-label={`Omit ${formatWhen(r.source.start.published_at, timeZone)}`} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {visible.length === 0 && <p className="page__note">No collections to show.</p>}
        </div>
      )}
      {result && (
        <Dialog title={result} onDismiss={() => setResult(undefined)} actions={<button type="button" className="button button--primary" onClick={() => setResult(undefined)}>OK</button>}>
          <p>{result === 'Success' ? 'The vat settings were stored and applied by the unit.' : 'The vat settings were stored; the unit did not apply them.'}</p>
        </Dialog>
      )}
    </section>
  );
}
