import type { AlertSender } from '../ports/alert-email';
import type { Ports } from '../ports/action-ports';
import type { Logger } from '../lib/logger';
import { ALERT_NOTIFIER_PORTS, ALERT_PROCESSOR_PORTS } from '../ports/function-ports';
import { makeNotifier, type Notifier } from './notifier';
import { makeAlertProcessor, type AlertProcessor } from './processor';

type NotifierPorts = Pick<Ports, (typeof ALERT_NOTIFIER_PORTS)[number]>;
type ProcessorPorts = Pick<Ports, (typeof ALERT_PROCESSOR_PORTS)[number]>;

/** The notifier (the delivery queue) over the ports of ALERT_NOTIFIER_PORTS. */
export const alertNotifier = (ports: NotifierPorts, log: Logger): Notifier =>
  makeNotifier({
    farms: ports.farms,
    settings: ports.alertSettings,
    alerts: ports.alertsWrite,
    sender: ports.alertSender,
    push: { subscriptions: ports.pushRecipients, sender: ports.pushSender },
    now: ports.now,
    log,
  });

/** The engine runner and its notifier over the ports of ALERT_PROCESSOR_PORTS (ingest hook and sweep Lambda). */
export const alertProcessor = (ports: ProcessorPorts, log: Logger): AlertProcessor =>
  makeAlertProcessor({
    farms: ports.farms,
    settings: ports.alertSettings,
    milkingWindows: ports.milkingWindows,
    pickups: ports.pickupList,
    alerts: ports.alertsWrite,
    notifier: alertNotifier(ports, log),
    now: ports.now,
    log,
  });

/**
 * An object whose async methods first wait for `load` (once; a failed load is tried again): the
 * `*FromEnv` factories below stay synchronous while their ports load asynchronously.
 */
const afterLoad = <T extends object>(load: () => Promise<T>): T => {
  let loading: Promise<T> | undefined;
  const ready = () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  return new Proxy({} as T, {
    // Not a thenable: `await` on it must not wait for a load.
    get: (_, key) =>
      key === 'then'
        ? undefined
        : async (...args: unknown[]) => {
            const target = (await ready()) as Record<string | symbol, (...a: unknown[]) => Promise<unknown>>;
            return target[key]?.(...args);
          },
  });
};

const given = (givenSender: AlertSender | undefined, now: () => Date): Partial<Ports> => ({ now, ...(givenSender ? { alertSender: givenSender } : {}) });

/** The notifier with its ports from the environment (the tests': a clock or a sender may be given). */
export const alertNotifierFromEnv = (log: Logger, env: NodeJS.ProcessEnv = process.env, givenSender?: AlertSender, now: () => Date = () => new Date()): Notifier =>
  afterLoad(async () => {
    const ports = (await import('../composition/ports-from-env')).portsFromEnv(env, given(givenSender, now));
    await ports.load(ALERT_NOTIFIER_PORTS);
    return alertNotifier(ports, log);
  });

/** The engine runner with its ports from the environment (as alertNotifierFromEnv). */
export const alertProcessorFromEnv = (log: Logger, env: NodeJS.ProcessEnv = process.env, givenSender?: AlertSender, now: () => Date = () => new Date()): AlertProcessor =>
  afterLoad(async () => {
    const ports = (await import('../composition/ports-from-env')).portsFromEnv(env, given(givenSender, now));
    await ports.load(ALERT_PROCESSOR_PORTS);
    return alertProcessor(ports, log);
  });
