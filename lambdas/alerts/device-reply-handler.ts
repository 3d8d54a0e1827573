import { createDocumentClient } from '../adapters/dynamodb/client';
import { storeDeviceReply } from '../adapters/iot/device-commands';
import { requireEnv } from '../lib/env';
import { createLogger } from '../lib/logger';

const TABLE = requireEnv('ALERTS_TABLE');
const doc = createDocumentClient();
const log = createLogger({ function: 'device-reply' });

/**
 * A vat device's answer to a command (IoT rule `SELECT *, topic(2) AS thing FROM
 * 'dts/+/cmd/reply'`; locally a subscriber on the broker): kept under its request id, where the
 * settings call that sent the command is waiting for it.
 */
export const handler = async (event: unknown): Promise<void> => {
  const thing = typeof (event as { thing?: unknown } | null)?.thing === 'string' ? (event as { thing: string }).thing : '(unknown)';
  if (!(await storeDeviceReply(doc, TABLE, thing, event))) log.warn('device reply without a request id', { thing });
};
