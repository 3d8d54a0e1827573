import { LIVE_RENEW_SECONDS, liveServerMessageSchema, type LiveReading } from '@shared/live/protocol';

/** The live-updates socket's state, as the dashboard shows it. */
export type LiveState = 'connecting' | 'live' | 'down';

interface LiveSocketOptions {
  /** The WebSocket API (config.json `liveUrl`). */
  readonly url: string;
  readonly farm: string;
  /** The Cognito access token, sent in each subscription (never in the URL); asked for again at every renewal. */
  readonly getToken: () => Promise<string | undefined>;
  readonly onReading: (reading: LiveReading) => void;
  readonly onState: (state: LiveState) => void;
  /** Test seam. @default globalThis.WebSocket */
  readonly WebSocketImpl?: typeof WebSocket;
}

/** Waits before reconnecting: 2 s, doubling to at most a minute. */
export const reconnectDelayMs = (attempt: number): number => Math.min(60_000, 2_000 * 2 ** Math.max(0, attempt));

/**
 * Keeps a socket to the live-updates API open for one farm: connects, subscribes with the token and
 * renews the subscription every LIVE_RENEW_SECONDS (the server's lasts a minute, so a role change
 * or a sign-out everywhere ends the pushes), hands on each of the farm's readings, and reconnects
 * after a drop (backing off).
 * 'down' while it is not subscribed: the dashboard's 120 s refresh carries on meanwhile.
 * Returns the function that closes it for good.
 */
export const openLiveSocket = ({ url, farm, getToken, onReading, onState, WebSocketImpl = globalThis.WebSocket }: LiveSocketOptions): (() => void) => {
  let closed = false;
  let socket: WebSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let renewal: ReturnType<typeof setInterval> | undefined;
  const stopRenewing = () => {
    if (renewal) clearInterval(renewal);
    renewal = undefined;
  };

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
    let ws: WebSocket;
    try {
      ws = new WebSocketImpl(url);
    } catch {
      return retry();
    }
    socket = ws;
    const subscribe = (with_: string) => ws.send(JSON.stringify({ action: 'subscribe', farm, token: with_ }));
    ws.onopen = () => {
      subscribe(token);
      stopRenewing();
      renewal = setInterval(() => {
        void getToken()
          .catch(() => undefined)
          .then((fresh) => {
            if (fresh && socket === ws && !closed) subscribe(fresh);
          });
      }, LIVE_RENEW_SECONDS * 1000);
    };
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
        stopRenewing();
        onState('down');
        ws.close();
      }
    };
    ws.onclose = () => {
      if (socket === ws) {
        socket = undefined;
        stopRenewing();
      }
      retry();
    };
  };

  void connect();
  return () => {
    closed = true;
    stopRenewing();
    if (timer) clearTimeout(timer);
    socket?.close();
    socket = undefined;
  };
};
