import { vi } from 'vitest';

/** What a handler answers: a body (200, JSON unless a string), or an explicit status and body. */
export type FakeAnswer = unknown | { readonly status: number; readonly body?: unknown };
export type FakeHandler = (fields: URLSearchParams) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeCall {
  readonly path: string;
  readonly type: string;
  readonly fields: URLSearchParams;
}

const isStatusAnswer = (answer: unknown): answer is { status: number; body?: unknown } =>
  answer !== null && typeof answer === 'object' && 'status' in answer && typeof (answer as { status: unknown }).status === 'number';

/**
 * A fetch for the API client that answers by action `type` (spec §7), and records every call.
 * An action without a handler answers 500, so a test notices a call it did not expect.
 */
export const fakeApi = (handlers: Readonly<Record<string, FakeHandler>>) => {
  const calls: FakeCall[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const fields = new URLSearchParams(typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? init.body : '');
    const type = fields.get('type') ?? '';
    calls.push({ path: url.pathname, type, fields });
    const handler = handlers[type];
    if (!handler) return new Response(JSON.stringify({ message: `unexpected ${type}` }), { status: 500 });
    const answer = await handler(fields);
    const { status, body } = isStatusAnswer(answer) ? answer : { status: 200, body: answer };
    return new Response(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body), { status });
  });
  /** The parsed JSON of a JSON-valued field of the nth call of `type`. */
  const jsonField = (type: string, field: string, nth = 0): unknown => {
    const raw = calls.filter((c) => c.type === type)[nth]?.fields.get(field);
    return raw === undefined || raw === null ? undefined : (JSON.parse(raw) as unknown);
  };
  return { fetch, calls, callsOf: (type: string) => calls.filter((c) => c.type === type), jsonField };
};

/** Answers `/config.json` (read by screens through loadWebConfig) with a valid config plus `extra`. */
export const stubWebConfig = (extra: Readonly<Record<string, unknown>> = {}) => {
  const config = {
    apiUrl: 'https://api.example.test',
    region: 'us-east-1',
    userPoolId: 'us-east-1_Test',
    userPoolClientId: 'client',
    ...extra,
  };
  const fetch = vi.fn<typeof globalThis.fetch>((input) =>
    Promise.resolve(String(input).endsWith('/config.json') ? new Response(JSON.stringify(config)) : new Response('', { status: 404 })),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
};
