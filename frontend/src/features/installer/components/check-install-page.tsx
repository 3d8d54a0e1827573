import { useState, type FormEvent } from 'react';
import { checkSupplyNumber, installerContracts as c, REQUIRED_FIELD } from '@shared/api/actions/installer';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { ReissueCertificate } from './unit-certificate';
import { diagnosticsStatus, onlineStatus, sensorBoardsStatus, type StatusLine } from '../utils/check-status';
import './installer.css';

/**
 * /dts/installer/check (operator §2, §4, §8): a supply number and a Check button; the connection
 * is checked first and, when it is up, the diagnostics and the sensor boards. Each check's
 * result is a status line, red when it is not okay.
 */
export function CheckInstallPage() {
  const client = useApiClient();
  const [supplyNumber, setSupplyNumber] = useState('');
  const [problem, setProblem] = useState('');
  const [checking, setChecking] = useState(false);
  const [lines, setLines] = useState<StatusLine[]>([]);

  const check = async (event: FormEvent) => {
    event.preventDefault();
    const supply = checkSupplyNumber(supplyNumber);
    if (!supply) {
      setProblem(REQUIRED_FIELD);
      return;
    }
    setProblem('');
    setSupplyNumber(supply);
    setLines([]);
    setChecking(true);
    try {
      const online = onlineStatus(await client.call(c.CHECK_ONLINE, { supplyNumber: supply }, { onError: () => undefined }));
      setLines([online.line]);
      if (!online.online) return;
      const [diagnostics, boards] = await Promise.all([
        client.call(c.CHECK_DIAGNOSTICS, { supplyNumber: supply }, { onError: () => undefined }),
        client.call(c.CHECK_SENSORBOARDS, { supplyNumber: supply }, { onError: () => undefined }),
      ]);
      setLines([online.line, ...diagnosticsStatus(diagnostics), sensorBoardsStatus(boards)]);
    } catch (err) {
      setLines((shown) => [...shown, { text: errorTextOf(err, 'The check could not be sent.'), bad: true }]);
    } finally {
      setChecking(false);
    }
  };

  return (
    <section className="page installer">
      <h1 className="page__title">Check Install</h1>
      <form className="installer__form" onSubmit={(e) => void check(e)} aria-label="Check install" noValidate>
        <label className="installer__field">
          Supply Number
          <input type="text" value={supplyNumber} aria-invalid={problem ? true : undefined} onChange={(e) => setSupplyNumber(e.target.value)} />
          {problem && <span className="installer-check__line installer-check__line--bad">{problem}</span>}
        </label>
        <button type="submit" className="button button--primary" disabled={checking}>
          {checking ? 'Checking…' : 'Check'}
        </button>
      </form>
      <ul className="installer-check" aria-label="Check results" aria-live="polite">
        {lines.map((l) => (
          <li key={l.text} className={`installer-check__line${l.bad ? ' installer-check__line--bad' : ''}`}>
            {l.text}
          </li>
        ))}
      </ul>
      {/* A unit whose key was lost (or never loaded) connects again with a new certificate. */}
      {lines.length > 0 && !checking && <ReissueCertificate supplyNumber={checkSupplyNumber(supplyNumber)} />}
    </section>
  );
}
