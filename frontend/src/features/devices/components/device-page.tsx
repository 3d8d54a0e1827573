import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatWhen } from '../../../lib/time-format';
import { deviceOneQuery, rawMessage } from '../api/devices';
import { farmLabel, LEVEL_SCALE, levelGaugeMax } from '../utils/fleet';
import { DeviceSeries } from './device-series';
import { Gauge } from './gauge';
import { RawDumps } from './raw-dumps';
import './devices.css';


/** /dts/device/{device_id} (operator §2): the gauges, the raw dumps and the series of one device. */
export function DevicePage() {
  const { deviceId = '' } = useParams();
  const client = useApiClient();
  const one = useQuery(deviceOneQuery(client, deviceId));
  const [raws, setRaws] = useState(false);
  const [raw, setRaw] = useState<{ published_at: string; raw: string } | undefined>(undefined);
  const openRaw = useCallback((id: string) => void rawMessage(client, id).then(setRaw, () => undefined), [client]);

  if (!one.data) return <p className="page__note">{one.isError ? 'The device could not be loaded.' : 'Loading…'}</p>;
  const { device, data } = one.data;
  return (
    <section className="device">
      <header className="devices__bar">
        <h1 className="page__title">
          {device.name} · {farmLabel(device)}
        </h1>
        <button type="button" className="button" onClick={() => setRaws(true)}>
          Raw data
        </button>
      </header>
      <p className="page__note">{data ? `Last reading ${formatWhen(data.published_at, device.timezone)}` : 'No reading yet.'}</p>
      <div className="device__gauges">
        <Gauge title="Milk Level (mm)" value={data?.milk_level} min={0} max={levelGaugeMax(device.vat_max_height)} unit="mm" scale={LEVEL_SCALE} />
        <Gauge title="Vat Temp (°C)" value={data?.temp1} min={-16} max={16} unit="°C" decimals={1} />
        <Gauge title="Inlet Temp (°C)" value={data?.temp2} min={-15} max={45} unit="°C" decimals={1} />
      </div>
      <DeviceSeries deviceId={deviceId} timeZone={device.timezone} onRaw={openRaw} />
      {raws && <RawDumps deviceId={deviceId} deviceName={device.name} timeZone={device.timezone} onClose={() => setRaws(false)} />}
      {raw && (
        <div className="raw-day" role="dialog" aria-modal="true" aria-label="Raw message">
          <header className="raw-day__bar">
            <h2>Raw message {formatWhen(raw.published_at, device.timezone)}</h2>
            <button type="button" className="button button--text" onClick={() => setRaw(undefined)}>
              Close
            </button>
          </header>
          <pre className="raw-day__message">{JSON.stringify(JSON.parse(raw.raw) as unknown, null, 2)}</pre>
        </div>
      )}
    </section>
  );
}
