import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { FILL_ONE, installerContracts, REQUIRED_FIELD, type DeviceSearchAnswer, type VatDevice } from '@shared/api/actions/installer';
import { PACKAGES, type Package } from '@shared/entities/farm';
import { capacitiesOf, heightOf, vatLabel, volumeOfLabel } from '@shared/installer/height-table';
import { Dialog } from '../../../components/dialog';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { Field } from './field';
import { VatShapeFields } from './vat-shape-fields';
import './installer.css';

interface VatForm {
  deviceId: string;
  manual: boolean;
  diameter: string;
  capacity: string;
  height: string;
  manufacturer: string;
  serial: string;
  auto: boolean;
  manualRadar: boolean;
  radarSerial: string;
  wedgeHeight: string;
  oclock: string;
}

/** A stored vat as its tab shows it: a table vat keeps the toggle off, any other opens in manual input. */
const vatFormOf = (d: VatDevice): VatForm => {
  const row = capacitiesOf(d.vat_diameter, 'config').find((r) => r.volume === d.vat_size && r.height === d.vat_max_height);
  return {
    deviceId: d._id,
    manual: !row,
    diameter: String(d.vat_diameter),
    capacity: row ? vatLabel(row) : String(d.vat_size),
    height: String(d.vat_max_height),
    manufacturer: d.vat_manufacturer,
    serial: d.vat_serial,
    auto: d.vat_auto,
    manualRadar: d.oclock === null,
    radarSerial: d.radar_serial,
    wedgeHeight: String(d.wedgeHeight),
    oclock: d.oclock === null ? '' : String(d.oclock),
  };
};
const EMPTY_VAT: VatForm = { deviceId: '', manual: false, diameter: '', capacity: '', height: '', manufacturer: '', serial: '', auto: false, manualRadar: false, radarSerial: '', wedgeHeight: '', oclock: '' };
const heightOfForm = (v: VatForm) => (v.manual ? v.height : String(heightOf(Number(v.diameter), v.capacity) ?? ''));

/** §5: diameter, capacity, height and radar serial required; diameter, height, wedge height ≥ 0; O'Clock 0-12. */
const vatProblems = (v: VatForm): Record<string, string> => {
  const p: Record<string, string> = {};
  const blank = (s: string) => s.trim() === '';
  if (blank(v.diameter)) p.diameter = REQUIRED_FIELD;
  if (blank(v.capacity)) p.capacity = REQUIRED_FIELD;
  if (blank(heightOfForm(v))) p.height = REQUIRED_FIELD;
  if (blank(v.radarSerial)) p.radarSerial = REQUIRED_FIELD;
  // The server takes the wedge height (manual radar) or the O'Clock position: the one shown is needed.
  if (v.manualRadar && blank(v.wedgeHeight)) p.wedgeHeight = REQUIRED_FIELD;
  if (!v.manualRadar && blank(v.oclock)) p.oclock = REQUIRED_FIELD;
  for (const [k, s] of [['diameter', v.diameter], ['height', heightOfForm(v)], ...(v.manualRadar ? [['wedgeHeight', v.wedgeHeight] as const] : [])] as const) if (!blank(s) && !(Number(s) >= 0)) p[k] = 'Must be 0 or more';
  if (!v.manualRadar && !blank(v.oclock) && !(Number.isInteger(Number(v.oclock)) && Number(v.oclock) >= 0 && Number(v.oclock) <= 12)) p.oclock = 'Must be 0 to 12';
  return p;
};

interface Notice {
  readonly title: string;
  readonly text: string;
  readonly then?: () => void;
}

/** /dts/installer/config (operator §2, §4, §5, §8): Device tab, and Vat 1-4 tabs after a successful search. */
export function InstallerConfigPage() {
  const client = useApiClient();
  const navigate = useNavigate();
  const [imei, setImei] = useState('');
  const [supplyNumber, setSupplyNumber] = useState('');
  const [variant, setVariant] = useState<Package>(PACKAGES[0]);
  const [lowConnectivity, setLowConnectivity] = useState(false);
  const [found, setFound] = useState<DeviceSearchAnswer>();
  const [vats, setVats] = useState<(VatForm | undefined)[]>([]);
  const [adding, setAdding] = useState<boolean[]>([false, false, false, false]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [searchProblem, setSearchProblem] = useState<string>();
  const [tab, setTab] = useState(0);
  const [notice, setNotice] = useState<Notice>();

  const applyAnswer = (a: DeviceSearchAnswer) => {
    setFound(a);
    setImei(a.particle?.body.imei ?? '');
    setSupplyNumber(a.farm?.fonterra_id ?? '');
    if (a.farm) setVariant(a.farm.package);
    setLowConnectivity(a.farm?.lowConnectivity ?? false);
    setVats([1, 2, 3, 4].map((n) => a.devices.find((d) => d.vat_number === n)).map((d) => (d ? vatFormOf(d) : undefined)));
    setAdding([false, false, false, false]);
    setProblems({});
  };
  const search = async (by: { imei: string } | { supplyNumber: string }) => {
    try {
      const a = await client.call(installerContracts.DEVICE_SEARCH, by, { onError: () => undefined });
      if (!a.particle) return setNotice({ title: 'Farm/Particle Not Found', text: 'Please try again' });
      if (a.devices.length === 0) return setNotice({ title: 'Vats Not Setup For This Particle', text: 'Please enter a new install - Redirecting', then: () => void navigate(paths.installerNew.to()) });
      applyAnswer(a);
    } catch (err) {
      setSearchProblem(errorTextOf(err, 'The search failed.'));
    }
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setSearchProblem(undefined);
    if (!imei.trim() && !supplyNumber.trim()) return setSearchProblem(FILL_ONE);
    void search(imei.trim() ? { imei: imei.trim() } : { supplyNumber: supplyNumber.trim().toUpperCase() });
  };
  const again = () => found && void search(found.key === 'imei' ? { imei } : { supplyNumber });

  const submitDevice = async () => {
    if (!found?.particle || !found.farm) return;
    try {
      const { message } = await client.call(
        installerContracts.PARTICLE_CONFIG,
        { key: found.key, particleID: found.particle._id, imei, farmID: found.farm._id, supplyNumber, productVariant: variant, lowConnectivity },
        { onError: () => undefined },
      );
      setNotice({ title: 'Submit Particle Changes', text: message, then: again });
    } catch (err) {
      setNotice({ title: 'Submit Particle Changes', text: errorTextOf(err, 'The changes could not be saved.') });
    }
  };
  const submitVat = async (n: number) => {
    const v = vats[n - 1];
    if (!v || !found?.particle || !found.farm) return;
    const p = vatProblems(v);
    setProblems(Object.fromEntries(Object.entries(p).map(([k, m]) => [`vat${n}.${k}`, m])));
    if (Object.keys(p).length) return;
    try {
      const answer = await client.call(
        installerContracts.VAT_CONFIG,
        {
          particleID: found.particle._id,
          farmID: found.farm._id,
          deviceID: v.deviceId,
          supplyNumber,
          vatNumber: n,
          diameter: v.diameter,
          volume: String(volumeOfLabel(v.capacity)),
          height: heightOfForm(v),
          manufacturer: v.manufacturer,
          serial: v.serial,
          radarSerial: v.radarSerial,
          auto: v.auto,
          // §5: wedge height when manual radar is on, otherwise the O'Clock position.
          ...(v.manualRadar ? { wedgeHeight: v.wedgeHeight } : { oclock: v.oclock }),
        },
        { onError: () => undefined },
      );
      setNotice({ title: answer.success ? 'Vat Update Success' : 'Vat Update Error', text: answer.result, then: again });
    } catch (err) {
      setNotice({ title: 'Vat Update Error', text: errorTextOf(err, 'The vat could not be saved.') });
    }
  };

  const setVat = (n: number, change: Partial<VatForm>) => setVats((all) => all.map((v, i) => (i === n - 1 && v ? { ...v, ...change } : v)));
  const tabs = found ? ['Device', 'Vat 1', 'Vat 2', 'Vat 3', 'Vat 4'] : ['Device'];
  const shown = Math.min(tab, tabs.length - 1);

  const vatTab = (n: number) => {
    const v = vats[n - 1];
    if (!v) {
      return (
        <button
          type="button"
          className="button"
          onClick={() => {
            setVats((all) => all.map((x, i) => (i === n - 1 ? { ...EMPTY_VAT } : x)));
            setAdding((a) => a.map((x, i) => (i === n - 1 ? true : x)));
          }}
        >
          Add Vat {n}
        </button>
      );
    }
    const p = (k: string) => problems[`vat${n}.${k}`];
    const stored = found?.devices.find((d) => d.vat_number === n);
    return (
      <div className="installer__vat">
        <div className="installer__buttons">
          {adding[n - 1] && (
            <button
              type="button"
              className="button"
              onClick={() => {
                setVats((all) => all.map((x, i) => (i === n - 1 ? undefined : x)));
                setAdding((a) => a.map((x, i) => (i === n - 1 ? false : x)));
              }}
            >
              Remove Vat {n}
            </button>
          )}
          <button type="button" className="button" onClick={() => setVat(n, stored ? vatFormOf(stored) : { ...EMPTY_VAT })}>
            Reset Changes
          </button>
        </div>
        <div className="installer__grid">
          <VatShapeFields
            value={v}
            height={heightOfForm(v)}
            capacities={capacitiesOf(Number(v.diameter), 'config').map(vatLabel)}
            problem={p}
            onChange={(patch) => setVat(n, patch)}
            onManual={(manual) => setVat(n, { manual, height: heightOfForm(v) })}
          />
          <label className="installer__check">
            <input type="checkbox" checked={v.auto} onChange={(e) => setVat(n, { auto: e.target.checked })} />
            Select if this Vat has Vat-Man Auto
          </label>
          <label className="installer__check">
            <input type="checkbox" role="switch" checked={v.manualRadar} onChange={(e) => setVat(n, { manualRadar: e.target.checked })} />
            Manual Radar Input
          </label>
          <Field label="Radar Serial" problem={p('radarSerial')}>
            {(a) => <input {...a} type="text" value={v.radarSerial} onChange={(e) => setVat(n, { radarSerial: e.target.value })} />}
          </Field>
          {v.manualRadar ? (
            <Field label="Wedge Height" problem={p('wedgeHeight')}>
              {(a) => <input {...a} type="number" min={0} value={v.wedgeHeight} onChange={(e) => setVat(n, { wedgeHeight: e.target.value })} />}
            </Field>
          ) : (
            <Field label="Radar O'Clock" problem={p('oclock')}>
              {(a) => <input {...a} type="number" min={0} max={12} value={v.oclock} onChange={(e) => setVat(n, { oclock: e.target.value })} />}
            </Field>
          )}
        </div>
        <img className="installer__clock" src="/installer/radar-clock.svg" alt="Radar clock positions" width={200} height={200} />
        <div className="installer__buttons">
          <button type="button" className="button button--primary" onClick={() => void submitVat(n)}>
            Submit Vat {n} Changes
          </button>
        </div>
      </div>
    );
  };

  return (
    <section className="page installer">
      <h1 className="page__title">Installer Vat Settings</h1>
      <div role="tablist" aria-label="Installer vat settings" className="installer__tabs">
        {tabs.map((t, k) => (
          <button key={t} type="button" role="tab" aria-selected={k === shown} className="installer__tab" onClick={() => setTab(k)}>
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tabs[shown]}>
        {shown === 0 ? (
          <form className="installer__grid" onSubmit={onSearch} noValidate aria-label="Device">
            <Field label="IMEI" problem={searchProblem}>
              {(a) => <input {...a} type="text" inputMode="numeric" value={imei} readOnly={found?.key === 'farm'} onChange={(e) => setImei(e.target.value)} />}
            </Field>
            <Field label="Supply Number" problem={undefined}>
              {(a) => <input {...a} type="text" value={supplyNumber} readOnly={found?.key === 'imei'} placeholder="e.g. FON12345" onChange={(e) => setSupplyNumber(e.target.value.toUpperCase())} />}
            </Field>
            <Field label="Product Variant" problem={undefined}>
              {(a) => (
                <select {...a} value={variant} onChange={(e) => setVariant(e.target.value as Package)}>
                  {PACKAGES.map((pkg) => (
                    <option key={pkg}>{pkg}</option>
                  ))}
                </select>
              )}
            </Field>
            <label className="installer__check">
              <input type="checkbox" checked={lowConnectivity} onChange={(e) => setLowConnectivity(e.target.checked)} />
              Select If Low Connectivity Install
            </label>
            <div className="installer__buttons">
              <button type="submit" className="button">
                Search
              </button>
              <button type="button" className="button button--primary" disabled={!found} onClick={() => void submitDevice()}>
                Submit Device Changes
              </button>
            </div>
          </form>
        ) : (
          vatTab(shown)
        )}
      </div>
      {notice && (
        <Dialog
          title={notice.title}
          onDismiss={() => {
            setNotice(undefined);
            notice.then?.();
          }}
          actions={
            <button
              type="button"
              className="button button--primary"
              data-autofocus
              onClick={() => {
                setNotice(undefined);
                notice.then?.();
              }}
            >
              Close
            </button>
          }
        >
          <p>{notice.text}</p>
        </Dialog>
      )}
    </section>
  );
}
