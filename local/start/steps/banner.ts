import { DEMO_PASSWORD } from '../../seed/demo-data';
import type { LocalFacts } from '../facts';

/** What `npm start` prints once everything listens. */
export const banner = (f: LocalFacts): string =>
  [
    '',
    '  Vat-Man is running locally.',
    '',
    `  Web app   ${f.web}`,
    `  API       ${f.api}`,
    `  MQTT      ${f.mqtt}   (units publish to dts/<unit>/<vat>/telemetry; the per-vat dts/<thing>/telemetry is deprecated)`,
    `  MQTT TLS  ${f.mqttTls}   (mutual TLS: a unit's certificate and key from New Install, CA .data/iot/ca/ca-cert.pem)`,
    `  Outbox    ${f.sns}   (every SMS and email sent)`,
    `  Dairy co. ${f.dairyGateway}   (the dairy company's gateway: events received, dockets)`,
    `  Cognito   ${f.cognito.endpoint}   pool ${f.cognito.userPoolId}`,
    ...(f.simulator
      ? [`  Devices   simulated for the demo farms; faults: curl -X POST ${f.simulator.control}/faults -d '{"device":"vm-31245-1","kind":"chiller_off","minutes":240}'`]
      : ['  Devices   simulator off (SIMULATOR=off)']),
    '',
    '  Demo sign-ins (password for all: ' + DEMO_PASSWORD + ')',
    ...f.accounts.map((a) => `    ${a.role.padEnd(18)} ${a.email}${a.totpSecret ? `   authenticator secret ${a.totpSecret}` : ''}`),
    '  (operators answer the sign-in code step from an authenticator app holding their secret)',
    '',
    '  Facts as JSON: .data/local.json   Logs as JSON lines: .data/logs/ (LOG_FORMAT=json for them here)   Stop: Ctrl-C',
    '',
  ].join('\n');
