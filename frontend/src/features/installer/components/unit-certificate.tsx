import { useState } from 'react';
import { installerContracts as c, type UnitDownload } from '@shared/api/actions/installer';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';

/** A PEM as a file to save (the unit's certificate, key and CA). */
const fileHref = (text: string) => `data:application/x-pem-file;charset=utf-8,${encodeURIComponent(text)}`;

/** What the unit needs to connect, as files to save: shown once, nothing keeps the private key. */
export function UnitDownloadLinks({ download }: { readonly download: UnitDownload }) {
  return (
    <div className="installer__download" aria-label="Unit certificate">
      <p>Load these onto the unit now: the private key is shown only this once.</p>
      <ul>
        <li>
          <a href={fileHref(download.certificatePem)} download={`${download.thingName}.cert.pem`}>
            Certificate
          </a>
        </li>
        <li>
          <a href={fileHref(download.privateKey)} download={`${download.thingName}.private.key`}>
            Private key
          </a>
        </li>
        {download.rootCaPem && (
          <li>
            <a href={fileHref(download.rootCaPem)} download="root-ca.pem">
              CA certificate
            </a>
          </li>
        )}
      </ul>
      <p>
        Thing <code>{download.thingName}</code>, endpoint <code>{download.endpoint}</code>, certificate <code>{download.certificateId}</code>
      </p>
    </div>
  );
}

/**
 * REISSUE_CERTIFICATE for a farm's unit: a new key pair (shown once), the old certificate revoked
 * so the unit stops connecting with it. For an answer that was lost, or a key lost or leaked.
 */
export function ReissueCertificate({ supplyNumber, onReissued }: { readonly supplyNumber: string; readonly onReissued?: (download: UnitDownload) => void }) {
  const client = useApiClient();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ text: string; bad: boolean; download?: UnitDownload }>();
  const [asking, setAsking] = useState(false);
  const reissue = async () => {
    setAsking(false);
    setSending(true);
    try {
      const answer = await client.call(c.REISSUE_CERTIFICATE, { supplyNumber }, { onError: () => undefined });
      setResult({ text: answer.result, bad: false, download: answer.download });
      onReissued?.(answer.download);
    } catch (err) {
      setResult({ text: errorTextOf(err, 'The new certificate could not be issued.'), bad: true });
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="installer__reissue">
      {asking ? (
        <p role="alert">
          The unit&apos;s current certificate stops working at once.{' '}
          <button type="button" className="button button--primary" onClick={() => void reissue()}>
            Issue it
          </button>{' '}
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </p>
      ) : (
        <button type="button" className="button" disabled={sending || !supplyNumber} onClick={() => setAsking(true)}>
          {sending ? 'Issuing…' : 'Issue a new certificate'}
        </button>
      )}
      {result && (
        <p role="status" className={`installer-check__line${result.bad ? ' installer-check__line--bad' : ''}`}>
          {result.text}
        </p>
      )}
      {result?.download && !onReissued && <UnitDownloadLinks download={result.download} />}
    </div>
  );
}
