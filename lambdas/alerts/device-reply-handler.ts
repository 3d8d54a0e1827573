import { DEVICE_REPLY_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();
const log = createLogger({ function: 'device-reply' });

/**
 * A vat device's answer to a command (IoT rule `SELECT *, topic(2) AS thing FROM
 * 'dts/+/cmd/reply'`; locally a subscriber on the broker): kept under its request id, where the
 * settings call that sent the command is waiting for it.
 */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(DEVICE_REPLY_PORTS);
  const replies = ports.deviceReplies;
  return observe(log, async (event: unknown): Promise<void> => {
    const thing = typeof (event as { thing?: unknown } | null)?.thing === 'string' ? (event as { thing: string }).thing : '(unknown)';
    if (!(await replies.store(thing, event))) log.warn('device reply without a request id', { thing });
  });
});
