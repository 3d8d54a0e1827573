import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FILL_ONE, installerContracts, type DeviceSearchAnswer } from '@shared/api/actions/installer';
import { PACKAGES } from '@shared/entities/farm';
import { volumeOfLabel } from '@shared/installer/height-table';
import { NoticeDialog } from '../../../components/dialog';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { EMPTY_VAT, vatFormOf, vatProblems, type ConfigVatForm } from '../utils/config-vat-form';
import { vatHeight } from '../utils/new-install-form';
import { ConfigDeviceForm, type ConfigDevice } from './config-device-form';
import { ConfigVatTab } from './config-vat-tab';
import { InstallerTabs } from './installer-tabs';
import './installer.css';

interface Notice {
  readonly title: string;
  readonly text: string;
  readonly then?: () => void;
}

/** /dts/installer/config (operator §2, §4, §5, §8): Device tab, and Vat 1-4 tabs after a successful search. */
export function InstallerConfigPage() {
  const client = useApiClient();
  const navigate = useNavigate();
  const [device, setDevice] = useState<ConfigDevice>({ imei: '', supplyNumber: '', variant: PACKAGES[0], lowConnectivity: false });
  const { imei, supplyNumber, variant, lowConnectivity } = device;
  const [found, setFound] = useState<DeviceSearchAnswer>();
  const [vats, setVats] = useState<(ConfigVatForm | undefined)[]>([]);
  const [adding, setAdding] = useState<boolean[]>([false, false, false, false]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [searchProblem, setSearchProblem] = useState<string>();
  const [tab, setTab] = useState(0);
  const [notice, setNotice] = useState<Notice>();

  const applyAnswer = (a: DeviceSearchAnswer) => {
    setFound(a);
    setDevice((d) => ({ imei: a.particle?.body.imei ?? '', supplyNumber: a.farm?.fonterra_id ?? '', variant: a.farm ? a.farm.package : d.variant, lowConnectivity: a.farm?.lowConnectivity ?? false }));
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
  const onSearch = () => {
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
          height: vatHeight(v),
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

  const setVat = (n: number, change: Partial<ConfigVatForm>) => setVats((all) => all.map((v, i) => (i === n - 1 && v ? { ...v, ...change } : v)));
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
    const stored = found?.devices.find((d) => d.vat_number === n);
    return (
      <ConfigVatTab
        n={n}
        value={v}
        adding={adding[n - 1] ?? false}
        problem={(k) => problems[`vat${n}.${k}`]}
        onChange={(patch) => setVat(n, patch)}
        onRemove={() => {
          setVats((all) => all.map((x, i) => (i === n - 1 ? undefined : x)));
          setAdding((a) => a.map((x, i) => (i === n - 1 ? false : x)));
        }}
        onReset={() => setVat(n, stored ? vatFormOf(stored) : { ...EMPTY_VAT })}
        onSubmit={() => void submitVat(n)}
      />
    );
  };

  return (
    <section className="page installer">
      <h1 className="page__title">Installer Vat Settings</h1>
      <InstallerTabs label="Installer vat settings" tabs={tabs} shown={shown} onSelect={setTab} />
      <div role="tabpanel" aria-label={tabs[shown]}>
        {shown === 0 ? (
          <ConfigDeviceForm
            value={device}
            searchedBy={found?.key}
            searchProblem={searchProblem}
            onChange={(patch) => setDevice((d) => ({ ...d, ...patch }))}
            onSearch={onSearch}
            onSubmit={found ? () => void submitDevice() : undefined}
          />
        ) : (
          vatTab(shown)
        )}
      </div>
      {notice && (
        <NoticeDialog
          title={notice.title}
          onClose={() => {
            setNotice(undefined);
            notice.then?.();
          }}
        >
          <p>{notice.text}</p>
        </NoticeDialog>
      )}
    </section>
  );
}
