import * as z from 'zod';

/**
 * The live-updates WebSocket: the same messages in AWS (API Gateway WebSocket API,
 * cdk/lib/constructs/live.ts) and locally (local/stand-ins/websocket-gateway.ts).
 *
 * The browser connects without credentials (a URL is logged by the edge, so no token goes in one),
 * then subscribes to one farm with its Cognito access token in the message. The server checks the
 * token, the person's current groups and the session (not signed out everywhere), and that they
 * may see the farm; the subscription then lasts LIVE_AUTHORIZED_SECONDS. The browser sends the
 * subscription again every LIVE_RENEW_SECONDS, so a role change, an unlink or a sign-out everywhere
 * stops the pushes within a minute. Every reading the ingest stores for a vat of that farm is
 * pushed as a `reading` message to the connections whose subscription is current.
 */
export const LIVE_AUTHORIZED_SECONDS = 60;
export const LIVE_RENEW_SECONDS = 40;

/** The route key is the message's `action` (API Gateway's route selection `$request.body.action`). */
export const LIVE_ROUTE_SELECTION = '$request.body.action';

export const subscribeMessageSchema = z.object({ action: z.literal('subscribe'), farm: z.string().min(1).max(64), token: z.string().min(1).max(8_192) });

/**
 * A new reading of a vat: which device, when it was published, and the values its card shows
 * (volume, level, vat temperature, agitator, the Auto tile's state), so the dashboard applies it to
 * its cached answer instead of asking again (decision 077).
 */
const liveReadingSchema = z.object({
  type: z.literal('reading'),
  farm: z.string(),
  device: z.string(),
  published_at: z.string(),
  milk_volume: z.number().nullable(),
  /** Absent from a server before decision 077: the card then keeps its level until the refresh. */
  milk_level: z.number().nullish(),
  temp1: z.number().nullable(),
  agitator_status: z.union([z.literal(0), z.literal(1)]).nullable(),
  state_machine: z.string().nullish(),
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
export const LIVE_BAD_MESSAGE = 'Send {"action":"subscribe","farm":"<farm id>","token":"<access token>"}.';

/** API Gateway closes a WebSocket connection after 2 hours: its records expire then too. */
export const LIVE_CONNECTION_TTL_SECONDS = 2 * 60 * 60;
