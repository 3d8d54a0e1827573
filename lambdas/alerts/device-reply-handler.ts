import { requireEnv } from '../lib/env';
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
  const [{ createDocumentClient }, { storeDeviceReply }] = await Promise.all([import('../adapters/dynamodb/client'), import('../adapters/iot/device-commands')]);
  const table = requireEnv('ALERTS_TABLE', env);
  const doc = createDocumentClient(env);
  return async (event: unknown): Promise<void> => {
    const thing = typeof (event as { thing?: unknown } | null)?.thing === 'string' ? (event as { thing: string }).thing : '(unknown)';
    if (!(await storeDeviceReply(doc, table, thing, event))) log.warn('device reply without a request id', { thing });
  };
});
