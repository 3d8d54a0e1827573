import * as z from 'zod';
import { collectionEventSchema, DAIRY_EVENT_KINDS, milkingEventSchema, vatExceptionSchema } from '../../dairy-company/payloads';
import { access, contract } from '../contract';
import { farmField } from '../fields';

/* /api/farmer/log/fonterra: the farmer's log of the reports to the dairy company (farmer §2.15, §7 FARMER_LOG_FONTERRA) and the Admin's resend. */

/** One try at sending a report and the gateway's answer: its HTTP status, 0 when none came (a retried status or 0: tried again). */
const dairyAttemptSchema = z.object({ at: z.string(), status: z.number().int(), message: z.string() });

/**
 * A report's request as the log shows it: the body as sent, read back as JSON. The one-decimal
 * temperatures travel as bare number tokens (`gatewayJson`), so here they are numbers.
 */
const collectionEventSent = collectionEventSchema.extend({
  AverageTemperatureAtCollection: z.number(),
  VatCollectionDetails: z.array(collectionEventSchema.shape.VatCollectionDetails.element.extend({ VatTemperature: z.number() })).min(1),
});
const dairyRequestSchema = z.union([milkingEventSchema, collectionEventSent, vatExceptionSchema]);

/** A report to the dairy company as the log shows it: the request as sent and every answer. */
const dairyReportSchema = z.object({
  /** The event's idempotency key (what DAIRY_EVENT_RESEND names). */
  key: z.string(),
  kind: z.enum(DAIRY_EVENT_KINDS),
  event_at: z.string(),
  state: z.enum(['pending', 'sent', 'refused']),
  request: dairyRequestSchema,
  /** The last tries (at most 10), oldest first. */
  attempts: z.array(dairyAttemptSchema),
  /** Every try made, including those no longer listed. */
  attempt_count: z.number().int(),
});
export type DairyReport = z.infer<typeof dairyReportSchema>;

/** Per vat: `activity` the last milking and collection reports, `alert` the last exception report (each absent when none). */
export const vatLogSchema = z.object({ vat: z.number().int(), activity: z.array(dairyReportSchema), alert: z.array(dairyReportSchema) });
export type VatLog = z.infer<typeof vatLogSchema>;

export const farmerLogFonterraContracts = {
  FARMER_LOG_FONTERRA: contract({
    path: '/api/farmer/log/fonterra',
    type: 'FARMER_LOG_FONTERRA',
    input: z.object({ type: z.literal('FARMER_LOG_FONTERRA'), farm: farmField }),
    answer: z.array(vatLogSchema),
    access: access.farmMember(),
  }),
  /**
   * Sends a farm's refused reports (or the one named by `key`) to the dairy company again: they go
   * back in the queue, due now, with their tries kept. The provider's Admin only (after fixing what
   * the company refused: a farm id it did not know, a token). Answers the keys queued again.
   */
  DAIRY_EVENT_RESEND: contract({
    path: '/api/farmer/log/fonterra',
    type: 'DAIRY_EVENT_RESEND',
    input: z.object({ type: z.literal('DAIRY_EVENT_RESEND'), farm: farmField, key: z.string().trim().max(200, 'key is not valid').optional() }),
    answer: z.object({ requeued: z.array(z.string()) }),
    access: access.admin(),
  }),
} as const;
