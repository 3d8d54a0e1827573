import { createLogger } from '../lib/logger';
import { alertProcessorFromEnv } from './deps';

const log = createLogger({ function: 'alert-sweep' });
const processor = alertProcessorFromEnv(log);

/**
 * The scheduled alert sweep (EventBridge every minute in AWS, the scheduler stand-in locally):
 * time-based alert types for every device (OFFLINE, a power cut that fell silent, collection
 * overrunning, pick-up due) and deliveries still pending. Runs that overlap are harmless: the
 * engine state is under an optimistic lock and every alert write is conditional.
 */
export const handler = async (): Promise<{ devices: number; failed: number; delivered: number }> => {
  const result = await processor.sweepAll();
  if (result.failed > 0) log.warn('alert sweep finished with failures', result);
  return result;
};
