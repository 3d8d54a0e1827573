import * as z from 'zod';

/**
 * The live-updates WebSocket (issue 26): the same messages in AWS (API Gateway WebSocket API,
 * cdk/lib/constructs/live.ts) and locally (local/stand-ins/websocket-gateway.ts).
 *
 * The browser connects with its Cognito access token in the `token` query parameter (a browser
 * WebSocket cannot send headers); $connect verifies it and refuses the connection otherwise.
 * Then it subscribes to one farm; the server checks the caller may see that farm. Every reading
 * the ingest stores for a vat of that farm is then pushed as a `reading` message.
 */

/** The route key is the message's `action` (API Gateway's route selection `$request.body.action`). */
export const LIVE_ROUTE_SELECTION = '$request.body.action';

export const subscribeMessageSchema = z.object({ action: z.literal('subscribe'), farm: z.string().min(1).max(64) });
export type SubscribeMessage = z.infer<typeof subscribeMessageSchema>;

/** A new reading of a vat: which device, when it was published, and its shown values. */
export const liveReadingSchema = z.object({
  type: z.literal('reading'),
  farm: z.string(),
  device: z.string(),
  published_at: z.string(),
  milk_volume: z.number().nullable(),
  temp1: z.number().nullable(),
  agitator_status: z.union([z.literal(0), z.literal(1)]).nullable(),
});
export type LiveReading = z.infer<typeof liveReadingSchema>;

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  liveReadingSchema,
  z.object({ type: z.literal('subscribed'), farm: z.string() }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;

/** What the server answers a subscription it refuses (not the caller's farm, or not a farm). */
export const LIVE_FORBIDDEN = 'You do not have access to this farm.';
/** A message that is not a subscription. */
export const LIVE_BAD_MESSAGE = 'Send {"action":"subscribe","farm":"<farm id>"}.';

/** API Gateway closes a WebSocket connection after 2 hours: its records expire then too. */
export const LIVE_CONNECTION_TTL_SECONDS = 2 * 60 * 60;
