import type { Device } from '../../shared/entities/device';
import type { Reading } from '../../shared/telemetry/reading';
import { assertIsError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import type { AlertProcessor } from './processor';

/**
 * The ingest's onReading port. An alert-engine failure must not fail the ingest: the reading is
 * already committed, so an IoT retry would only answer 'duplicate' and never reach the engine
 * again. It is logged instead; the engine catches up on the device's next reading (conditions are
 * levels held over time, not single readings), and the sweep re-delivers any pending alert.
 */
export const alertHook =
  (processor: Pick<AlertProcessor, 'onReading'>, log: Logger) =>
  async (ctx: { readonly device: Device; readonly reading: Reading }): Promise<void> => {
    try {
      await processor.onReading(ctx);
    } catch (err) {
      assertIsError(err);
      log.error('alert engine failed for a reading', { device: ctx.device._id, at: ctx.reading.published_at, err });
    }
  };
