import { useState } from 'react';
import { vatSettingsResultText } from '@shared/api/actions/installer';
import {
  averageDiameter,
  maxHeightFromRadar,
  radarAfterToHeight,
  settingsText,
  type CalibrationConfig,
} from '@shared/calibration/formula';
import { useConfirm } from '../../../components/confirm-dialog';
import { NoticeDialog } from '../../../components/dialog';
import { errorTextOf } from '../../../lib/api-error';
import { useApiClient } from '../../../lib/api-client-provider';
import { applyVatSettings, loadCollections, loadVatConfig } from '../api/calibration';
import { CalibrationTable, rowOf, type Row } from './calibration-table';
import './calibration.css';

/** Operator §2 and §8's words. */
const CONFIRM_CALIBRATION = 'Are you sure you want to submit this calibration';
const REQUIRED = 'Required Field';

type ConfigField = 'vatSize' | 'height' | 'diameter' | 'wedgeHeight' | 'volumeOffset';
const CONFIG_LABELS: Record<ConfigField, string> = { vatSize: 'Vat Size', height: 'Height', diameter: 'Diameter', wedgeHeight: 'Wedge Height', volumeOffset: 'Volume Offset' };

const numberOf = (text: string): number | undefined => (text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));

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
        <CalibrationTable
          rows={rows}
          calc={calc}
          timeZone={timeZone}
          showUnadjusted={showUnadjusted}
          onShowUnadjusted={setShowUnadjusted}
          hideOmitted={hideOmitted}
          onHideOmitted={setHideOmitted}
          onToggleOmit={toggleOmit}
        />
      )}
      {result && (
        <NoticeDialog title={result} onClose={() => setResult(undefined)} closeLabel="OK" focusButton={false}>
          <p>{result === 'Success' ? 'The vat settings were stored and applied by the unit.' : 'The vat settings were stored; the unit did not apply them.'}</p>
        </NoticeDialog>
      )}
    </section>
  );
}
