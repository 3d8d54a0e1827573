import { liveServerMessageSchema, type LiveReading } from '@shared/live/protocol';

/** The live-updates socket's state, as the dashboard shows it. */
export type LiveState = 'connecting' | 'live' | 'down';

export interface LiveSocketOptions {
  /** The WebSocket API (config.json `liveUrl`). */
  readonly url: string;
  readonly farm: string;
  /** The Cognito access token ($connect checks it); a new one for each (re)connection. */
  readonly getToken: () => Promise<string | undefined>;
  readonly onReading: (reading: LiveReading) => void;
  readonly onState: (state: LiveState) => void;
  /** Test seam. @default globalThis.WebSocket */
  readonly WebSocketImpl?: typeof WebSocket;
}

/** Waits before reconnecting: 2 s, doubling to at most a minute. */
export const reconnectDelayMs = (attempt: number): number => Math.min(60_000, 2_000 * 2 ** Math.max(0, attempt));

/**
 * Keeps a socket to the live-updates API open for one farm (issue 26): connects with the token,
 * subscribes, hands on each of the farm's readings, and reconnects after a drop (backing off).
 * 'down' while it is not subscribed: the dashboard's 120 s refresh carries on meanwhile.
 * Returns the function that closes it for good.
 */
export const openLiveSocket = ({ url, farm, getToken, onReading, onState, WebSocketImpl = globalThis.WebSocket }: LiveSocketOptions): (() => void) => {
  let closed = false;
  let socket: WebSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;

  const retry = () => {
    if (closed) return;
    onState('down');
    timer = setTimeout(() => void connect(), reconnectDelayMs(attempt));
    attempt += 1;
  };

  const connect = async () => {
    if (closed) return;
    onState('connecting');
    const token = await getToken().catch(() => undefined);
    if (closed) return;
    if (!token) return retry();
    const target = new URL(url);
    target.searchParams.set('token', token);
    let ws: WebSocket;
    try {
      ws = new WebSocketImpl(target.toString());
    } catch {
      return retry();
    }
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ action: 'subscribe', farm }));
    ws.onmessage = (event: MessageEvent) => {
      let parsed: ReturnType<typeof liveServerMessageSchema.safeParse>;
      try {
        parsed = liveServerMessageSchema.safeParse(JSON.parse(String(event.data)));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'subscribed' && message.farm === farm) {
        attempt = 0;
        onState('live');
      } else if (message.type === 'reading' && message.farm === farm) {
        onReading(message);
      } else if (message.type === 'error') {
        // Refused (not this person's farm): no point in retrying; the refresh carries on.
        closed = true;
        onState('down');
        ws.close();
      }
    };
    ws.onclose = () => {
      if (socket === ws) socket = undefined;
      retry();
    };
  };

  void connect();
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    socket?.close();
    socket = undefined;
  };
};
