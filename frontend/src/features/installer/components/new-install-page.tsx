import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { installerContracts, type UnitDownload } from '@shared/api/actions/installer';
import type { ContractFields } from '@shared/api/contract';
import { DAIRY_COMPANY_SUPPLIER } from '@shared/entities/farm';
import { NoticeDialog } from '../../../components/dialog';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { useWebConfig } from '../../../lib/use-web-config';
import {
  capacityChoices,
  checkNewInstall,
  DEFAULT_DEVICE,
  NEW_INSTALL_OCLOCK,
  NEW_VAT,
  newInstallFields,
  VAT_COUNTS,
  vatHeight,
  type FormProblems,
  type VatForm,
} from '../utils/new-install-form';
import { Field } from './field';
import { InstallerTabs } from './installer-tabs';
import { NewInstallDeviceFields } from './new-install-device-fields';
import { ReissueCertificate, UnitDownloadLinks } from './unit-certificate';
import { VatShapeFields } from './vat-shape-fields';
import './installer.css';

interface Outcome {
  readonly success: boolean;
  readonly result: string;
  readonly redirect: boolean;
  readonly supplier: string;
  readonly supplyNumber: string;
  readonly download?: UnitDownload;
}

/** /dts/installer/new (operator §2, §5): Device and Vat 1…N tabs; 'Submit New Install' on the last vat tab. */
export function NewInstallPage() {
  const client = useApiClient();
  const navigate = useNavigate();
  const installFormUrl = useWebConfig()?.installFormUrl;
  const [device, setDevice] = useState(DEFAULT_DEVICE);
  const [vats, setVats] = useState<VatForm[]>(VAT_COUNTS.map(() => ({ ...NEW_VAT })));
  const [tab, setTab] = useState(0);
  // The fields are checked from the first Submit on, then again as they change: a field put right
  // loses its 'Required Field' (and its tab its error mark) at once, not at the next Submit.
  const [checked, setChecked] = useState(false);
  const problems: FormProblems = checked ? checkNewInstall(device, vats) : {};
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const requiredId = useId();
  const count = Number(device.numVats) || 1;
  const tabs = ['Device', ...VAT_COUNTS.slice(0, count).map((n) => `Vat ${n}`)];

  // One id per submission of this form, sent again when the same form is submitted again (a retry
  // after a lost answer or an error resumes the same install on the server); a changed form is a
  // new submission.
  const [requestId, setRequestId] = useState<string>();
  useEffect(() => setRequestId(undefined), [device, vats]);

  const setVat = (i: number, change: Partial<VatForm>) => setVats((all) => all.map((v, k) => (k === i ? { ...v, ...change } : v)));
  const submit = async () => {
    setChecked(true);
    if (Object.keys(checkNewInstall(device, vats)).length) return;
    const id = requestId ?? crypto.randomUUID();
    setRequestId(id);
    setSending(true);
    const supplyNumber = device.supplyNumber.trim().toUpperCase();
    try {
      const fields = { ...newInstallFields(device, vats), requestId: id } as ContractFields<typeof installerContracts.NEW_INSTALL>;
      const answer = await client.call(installerContracts.NEW_INSTALL, fields, { onError: () => undefined });
      setOutcome({ ...answer, supplier: device.dairySupplier, supplyNumber });
    } catch (err) {
      setOutcome({ success: false, result: errorTextOf(err, 'The install could not be sent.'), redirect: false, supplier: device.dairySupplier, supplyNumber });
    } finally {
      setSending(false);
    }
  };
  const close = () => {
    const done = outcome;
    setOutcome(undefined);
    if (!done?.redirect) return;
    // §4: a successful install for the dairy company goes to its form; otherwise to Check Install.
    if (done.success && done.supplier === DAIRY_COMPANY_SUPPLIER && installFormUrl) window.location.assign(installFormUrl);
    else void navigate(paths.installerCheck.to());
  };

  const deviceTab = <NewInstallDeviceFields value={device} problems={problems} onChange={setDevice} />;

  const vatTab = (i: number) => {
    const v = vats[i] ?? NEW_VAT;
    const p = (name: string) => problems[`vat${i + 1}.${name}`];
    return (
      <div className="installer__grid">
        <VatShapeFields
          value={v}
          height={vatHeight(v)}
          capacities={capacityChoices(v.diameter)}
          problem={p}
          onChange={(patch) => setVat(i, patch)}
          onManual={(manual) => setVat(i, { manual, height: manual ? vatHeight(v) : '' })}
        />
        <Field label="Radar O'Clock" problem={undefined}>
          {(a) => (
            <select {...a} value={v.oclock} onChange={(e) => setVat(i, { oclock: e.target.value })}>
              {NEW_INSTALL_OCLOCK.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Radar Serial" problem={p('radarSerial')}>
          {(a) => <input {...a} type="text" value={v.radarSerial} onChange={(e) => setVat(i, { radarSerial: e.target.value })} />}
        </Field>
        <label className="installer__check">
          <input type="checkbox" checked={v.auto} onChange={(e) => setVat(i, { auto: e.target.checked })} />
          Select if this Vat has Vat-Man Auto
        </label>
      </div>
    );
  };

  const shown = Math.min(tab, tabs.length - 1);
  const anyProblem = Object.keys(problems).length > 0;
  return (
    <section className="page installer">
      <h1 className="page__title">New Install</h1>
      <InstallerTabs
        label="New install"
        tabs={tabs}
        shown={shown}
        onSelect={setTab}
        hasProblem={(k) => Object.keys(problems).some((key) => key.startsWith(k === 0 ? 'device.' : `vat${k}.`))}
      />
      <div role="tabpanel" aria-label={tabs[shown]}>
        {shown === 0 ? deviceTab : vatTab(shown - 1)}
      </div>
      <div className="installer__buttons">
        {shown < tabs.length - 1 && (
          <button type="button" className="button" onClick={() => setTab(shown + 1)}>
            Next
          </button>
        )}
        {shown === tabs.length - 1 && shown > 0 && (
          <button type="button" className="button button--primary" disabled={sending} aria-describedby={anyProblem ? requiredId : undefined} onClick={() => void submit()}>
            Submit New Install
          </button>
        )}
        {/* The whole form's note, beside the buttons: under the last field it read as that field's. */}
        {anyProblem && (
          <p className="installer__required installer__required--form" id={requiredId} role="alert">
            Required Field
          </p>
        )}
      </div>
      {outcome && (
        <NoticeDialog title={outcome.success ? 'Vat-Man Install Submitted Successfully' : 'Error Submitting Vat-Man Install'} onClose={close}>
          <p>{outcome.result}</p>
          {outcome.download && <UnitDownloadLinks download={outcome.download} />}
          {/* The key above is the only copy: lost before it reached the unit, a new one replaces it. */}
          {outcome.success && <ReissueCertificate supplyNumber={outcome.supplyNumber} onReissued={(download) => setOutcome({ ...outcome, download })} />}
        </NoticeDialog>
      )}
    </section>
  );
}
