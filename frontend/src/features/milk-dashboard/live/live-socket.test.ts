import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_FORBIDDEN, LIVE_RENEW_SECONDS } from '@shared/live/protocol';
import { openLiveSocket, reconnectDelayMs, type LiveState } from './live-socket';

/** A WebSocket the test drives: it records what was sent and lets the test answer. */
class FakeSocket {
  static made: FakeSocket[] = [];
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.closed = true;
  }
  answer(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('the live-updates socket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.made = [];
  });
  afterEach(() => vi.useRealTimers());

  const start = ({ token }: { token: string | undefined } = { token: 'tok en' }) => {
    const states: LiveState[] = [];
    const readings: unknown[] = [];
    const close = openLiveSocket({
      url: 'wss://live.example/live',
      farm: 'farm-1',
      getToken: async () => token,
      onReading: (r) => readings.push(r),
      onState: (s) => states.push(s),
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    });
    return { states, readings, close };
  };

  it('connects with no token in the URL, subscribes to the farm with the token, is live once subscribed and hands on its readings only', async () => {
    const { states, readings, close } = start();
    await flush();
    const socket = FakeSocket.made[0] as FakeSocket;
    expect(socket.url).toBe('wss://live.example/live');
    socket.onopen?.();
    expect(socket.sent).toEqual([JSON.stringify({ action: 'subscribe', farm: 'farm-1', token: 'tok en' })]);
    socket.answer({ type: 'subscribed', farm: 'farm-1' });
    expect(states.at(-1)).toBe('live');
    const reading = { type: 'reading', farm: 'farm-1', device: 'dev-1', published_at: '2026-03-10T12:00:00Z', milk_volume: 10, milk_level: 80, temp1: 4, agitator_status: 1, state_machine: 'storage' };
    socket.answer(reading);
    socket.answer({ ...reading, farm: 'farm-2' });
    socket.answer({ type: 'reading', farm: 'farm-1' });
    expect(readings).toEqual([reading]);
    close();
    expect(socket.closed).toBe(true);
  });

  it('renews the subscription with a fresh token every 40 s while open, and stops when closed', async () => {
    const { close } = start();
    await flush();
    const socket = FakeSocket.made[0] as FakeSocket;
    socket.onopen?.();
    socket.answer({ type: 'subscribed', farm: 'farm-1' });
    await vi.advanceTimersByTimeAsync(LIVE_RENEW_SECONDS * 1000 * 2);
    expect(socket.sent).toHaveLength(3);
    close();
    await vi.advanceTimersByTimeAsync(LIVE_RENEW_SECONDS * 1000 * 2);
    expect(socket.sent).toHaveLength(3);
  });

  it('is down after a drop and reconnects, backing off', async () => {
    const { states, close } = start();
    await flush();
    (FakeSocket.made[0] as FakeSocket).onclose?.();
    expect(states.at(-1)).toBe('down');
    await vi.advanceTimersByTimeAsync(reconnectDelayMs(0));
    expect(FakeSocket.made).toHaveLength(2);
    expect(reconnectDelayMs(1)).toBe(4_000);
    expect(reconnectDelayMs(10)).toBe(60_000);
    close();
  });

  it('stops for good when the server refuses the farm', async () => {
    const { states, close } = start();
    await flush();
    const socket = FakeSocket.made[0] as FakeSocket;
    socket.onopen?.();
    socket.answer({ type: 'error', message: LIVE_FORBIDDEN, LIVE_RENEW_SECONDS });
    socket.onclose?.();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.made).toHaveLength(1);
    expect(states.at(-1)).toBe('down');
    close();
  });

  it('does not connect without a token, and tries again later', async () => {
    const { states, close } = start({ token: undefined });
    await flush();
    expect(FakeSocket.made).toHaveLength(0);
    expect(states.at(-1)).toBe('down');
    close();
  });
});
