import { unitThingName } from '../../shared/entities/install';
import { telemetryTopic, unitTelemetryTopic } from '../../shared/telemetry/device-message';
import { DEMO_ACCOUNTS, DEMO_DEVICES, DEMO_FARMS, DEMO_PASSWORD, DEMO_UNIT_IMEIS } from '../seed/demo-data';

/** What a running local stack offers, written to .data/local.json for tests, benches and people. */
export interface LocalFacts {
  web: string;
  api: string;
  mqtt: string;
  /** The broker's mutual-TLS port (mqtts://localhost:<port>): a unit's certificate, key and the local CA. */
  mqttTls: string;
  sns: string;
  /** The live-updates WebSocket: ws://localhost:<port>/?token=<access token>. */
  live: string;
  dynamodb: { endpoint: string; farmsTable: string; readingsTable: string; alertsTable: string };
  /** The dairy company's gateway stand-in. */
  dairyGateway: string;
  /** The Web Push service stand-in (subscription endpoints are <push>/push/<id>). */
  push: string;
  /** The simulator's fault control (POST/GET /faults), when it runs. */
  simulator?: { control: string };
  cognito: { endpoint: string; userPoolId: string; clientId: string; region: string };
  /** `totpSecret`: the authenticator app's secret of a demo operator (the seed enrols them; operator roles need TOTP). */
  accounts: { role: string; email: string; password: string; totpSecret?: string }[];
  farms: { fonterra_id: string; package: string; vats: { vat_number: number; device_id: string; topic: string }[] }[];
}

/** The demo's sign-ins and farms, each vat with the topic its device publishes on. */
export const demoFacts = (totpSecrets: Readonly<Record<string, string>>): Pick<LocalFacts, 'accounts' | 'farms'> => ({
  accounts: DEMO_ACCOUNTS.map((a) => ({ role: a.role, email: a.email, password: DEMO_PASSWORD, ...(totpSecrets[a.email] ? { totpSecret: totpSecrets[a.email] } : {}) })),
  farms: DEMO_FARMS.map((f) => ({
    fonterra_id: f.fonterra_id,
    package: f.package,
    // A farm's unit publishes its vats on dts/<unit>/<vat>/telemetry; a farm without one on the deprecated per-vat topic.
    vats: DEMO_DEVICES.filter((d) => d.farm_id === f._id).map((d) => {
      const imei = DEMO_UNIT_IMEIS[f._id];
      return { vat_number: d.vat_number, device_id: d._id, topic: imei ? unitTelemetryTopic(unitThingName(imei), d.vat_number) : telemetryTopic(d.name) };
    }),
  })),
});
