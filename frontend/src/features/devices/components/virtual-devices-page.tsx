import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { deviceListQuery } from '../api/devices';
import './devices.css';

/** /dts/virtual (operator §2): the plain list of device names. */
export function VirtualDevicesPage() {
  const client = useApiClient();
  const list = useQuery(deviceListQuery(client, 1));
  return (
    <section className="devices">
      <h1 className="page__title">Devices</h1>
      {!list.data ? (
        <p className="page__note">{list.isError ? 'The devices could not be loaded.' : 'Loading…'}</p>
      ) : (
        <ul className="devices__names">
          {list.data.map((d) => (
            <li key={d._id}>
              <Link to={paths.device.to(d._id)}>{d.name}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
