import type { PortName } from '../ports/action-ports';
import { INGEST_PORTS, LIVE_PUSH_PORTS } from '../ports/function-ports';
import { optionalEnv } from '../lib/env';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';
import { LIVE_ENDPOINT_ENV } from '../../shared/live/endpoint-env';
import type { StoredReadings } from '../live/live';

const env = envAtImport();

/** The ingest stream's consumer with its ports from the environment (the same variables in AWS and the local stack), loaded on first use. */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { alertProcessor }, { makeIngest }, { makeStreamHandler }, { observe }, { tracer, traceClient }] = await Promise.all([
    import('../composition/ports-from-env'),
    import('../alerts/deps'),
    import('./ingest'),
    import('./stream-handler'),
    import('../lib/observe'),
    // Traced (X-Ray): the ingest and the API are the functions whose latency a farmer feels.
    import('../lib/tracing'),
  ]);
  const live = optionalEnv(LIVE_ENDPOINT_ENV, env) !== undefined;
  const log = createLogger({ function: 'ingest' });
  const ports = portsFromEnv(env, {}, { instrumentClient: traceClient });
  await ports.load(INGEST_PORTS.filter((p) => live || !(LIVE_PUSH_PORTS as readonly PortName[]).includes(p)));
  // Live updates: each device's new readings to the WebSocket connections watching its farm.
  const push = live
    ? (await import('../live/live')).makeLivePush({ connections: ports.connections, sender: ports.liveSender, log: log.child({ part: 'live' }) })
    : undefined;
  const ingest = makeIngest({
    farms: ports.ingestRecords,
    readings: ports.readingsWrite,
    now: () => new Date(),
    log,
    // The alert engine steps over each device's in-order readings of a batch, as part of
    // the device's committed step: a failure fails the device's records, and their retry evaluates them.
    onReadings: alertProcessor(ports, log.child({ part: 'alerts' })).onReadings,
    ...(push ? { onStored: (farm: string, devices: readonly StoredReadings[]) => push.readingsStored(farm, devices) } : {}),
  });
  return observe(log, makeStreamHandler(ingest, log, { counters: ports.ingestCounters, now: () => new Date() }), tracer);
});
