import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';

/**
 * /dts/telemetry (operator §2 'Telemetry and empty pages': a telemetry page that shows only a
 * placeholder). The placeholder says where the telemetry is, so it promises nothing the product
 * does not do; no menu links it.
 */
export function TelemetryPage() {
  return (
    <section className="page telemetry-page">
      <h1 className="page__title">Telemetry</h1>
      <p className="page__note">
        Each device's telemetry is on its own page: open it from the <Link to={paths.devices.to()}>Device list</Link>. How a dairy company's gateway
        receives milking, collection and vat-exception events is in the <Link to={paths.telemetryInterface.to()}>external telemetry interface</Link>.
      </p>
    </section>
  );
}
