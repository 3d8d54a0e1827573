import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { access, contract } from '@shared/api/contract';
import type { EndpointPath } from '@shared/api/endpoints';
import { createApiClient, encodeForm, type ApiClient } from './api-client';
import { ApiError, MSG_NO_RESPONSE, MSG_SERVER_ERROR, MSG_TRY_AGAIN } from './api-error';

const API_URL = 'https://api.example.test/';

/** A contract for a protocol test: any fields, the given answer schema (anything by default). */
const probe = <T extends string>(path: EndpointPath, type: T, answer: z.ZodType = z.unknown()) =>
  contract({ path, type, input: z.object({ type: z.literal(type) }).loose(), answer, access: access.self });

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Harness {
  readonly client: ApiClient;
  readonly fetch: ReturnType<typeof vi.fn<typeof fetch>>;
  readonly onError: ReturnType<typeof vi.fn<(e: ApiError) => void>>;
  readonly onUnauthorized: ReturnType<typeof vi.fn<(e: ApiError) => void>>;
}

const SIGNED_OUT = null;

const harness = (answer: (init?: RequestInit) => Promise<Response>, token: string | null = 'access-token-1'): Harness => {
  const fetchFn = vi.fn<typeof fetch>((_url, init) => answer(init));
  const client = createApiClient({ apiUrl: API_URL, getAccessToken: () => Promise.resolve(token ?? undefined), fetch: fetchFn });
  const onError = vi.fn<(e: ApiError) => void>();
  const onUnauthorized = vi.fn<(e: ApiError) => void>();
  client.on('error', onError);
  client.on('unauthorized', onUnauthorized);
  return { client, fetch: fetchFn, onError, onUnauthorized };
};

/** The request fetch received. */
const sent = (h: Harness): { url: string; init: RequestInit; form: URLSearchParams; headers: Headers } => {
  const [url, init = {}] = h.fetch.mock.calls[0] ?? [];
  return { url: String(url), init, form: new URLSearchParams(String(init.body)), headers: new Headers(init.headers) };
};

const failure = async (promise: Promise<unknown>): Promise<ApiError> => {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
};

describe('request', () => {
  it('POSTs a form-encoded body with type first to apiUrl + path', async () => {
    const h = harness(() => Promise.resolve(json(200, { ok: true })));
    await h.client.call(probe('/api/farmer/dashboard', 'FARMER_DASHBOARD_GET'), { farm: 'F-1', page_index: 2, remember: true });

    const { url, init, form, headers } = sent(h);
    expect(url).toBe('https://api.example.test/api/farmer/dashboard');
    expect(init.method).toBe('POST');
    expect(headers.get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect([...form.keys()]).toEqual(['type', 'farm', 'page_index', 'remember']);
    expect(Object.fromEntries(form)).toEqual({ type: 'FARMER_DASHBOARD_GET', farm: 'F-1', page_index: '2', remember: 'true' });
  });

  it('sends object-valued fields as JSON text and leaves out null and undefined', () => {
    const form = encodeForm('USER_SIGN_IN', {
      user: { email: 'a@b.nz', password: 'p&ss=word' },
      products: { water: true, soil: false },
      vats: [1, 2],
      farm: undefined,
      parent_id: null,
      type: 'IGNORED',
    });
    expect(form.getAll('type')).toEqual(['USER_SIGN_IN']);
    expect(JSON.parse(form.get('user') ?? '')).toEqual({ email: 'a@b.nz', password: 'p&ss=word' });
    expect(form.get('products')).toBe('{"water":true,"soil":false}');
    expect(form.get('vats')).toBe('[1,2]');
    expect(form.has('farm')).toBe(false);
    expect(form.has('parent_id')).toBe(false);
    // The body survives form encoding: '&' and '=' inside JSON do not split fields.
    expect(new URLSearchParams(form.toString()).get('user')).toBe(form.get('user'));
  });

  it('sends a form with a file as multipart/form-data, letting fetch set the boundary', async () => {
    const h = harness(() => Promise.resolve(json(200, { ok: true })));
    const file = new File(['supply_number,buffer_duration,end_of_milking\n'], 'windows.csv', { type: 'text/csv' });
    await h.client.call(probe('/api/admin/farm', 'FARMS_SETTINGS_UPLOAD'), { farms_settings: file, dairy_current: 'ALL' });
    const { init, headers } = sent(h);
    expect(headers.get('Content-Type')).toBeNull();
    expect(init.body).toBeInstanceOf(FormData);
    const form = init.body as FormData;
    expect(form.get('type')).toBe('FARMS_SETTINGS_UPLOAD');
    expect(form.get('dairy_current')).toBe('ALL');
    expect((form.get('farms_settings') as File).name).toBe('windows.csv');
  });

  it('sends the access token as a bearer', async () => {
    const h = harness(() => Promise.resolve(json(200, {})), 'eyJ.token.sig');
    await h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {});
    expect(sent(h).headers.get('Authorization')).toBe('Bearer eyJ.token.sig');
  });

  it('sends no Authorization header when signed out', async () => {
    const h = harness(() => Promise.resolve(json(200, 'logged_in')), SIGNED_OUT);
    await h.client.call(probe('/api/user', 'USER_CHECK_LOGIN_STATUS'), {});
    expect(sent(h).headers.has('Authorization')).toBe(false);
  });

  it('sends the call without a bearer when reading the session fails', async () => {
    const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(json(200, {})));
    const client = createApiClient({ apiUrl: API_URL, getAccessToken: () => Promise.reject(new Error('refresh failed')), fetch: fetchFn });
    await client.call(probe('/api/user', 'USER_CHECK_LOGIN_STATUS'), {});
    expect(new Headers(fetchFn.mock.calls[0]?.[1]?.headers).has('Authorization')).toBe(false);
  });
});

describe('response', () => {
  it('parses the answer with the given schema', async () => {
    const h = harness(() => Promise.resolve(json(200, { token: 'abc', extra: 1 })));
    const answer = await h.client.call(probe('/api/user', 'USER_SIGN_IN', z.object({ token: z.string() })), {});
    expect(answer).toEqual({ token: 'abc' });
  });

  it('returns plain-text answers as text', async () => {
    const h = harness(() => Promise.resolve(new Response('logged_in', { status: 200 })));
    await expect(h.client.call(probe('/api/user', 'USER_CHECK_LOGIN_STATUS'), {})).resolves.toBe('logged_in');
  });

  it('rejects an answer that does not match the schema as Server Error!', async () => {
    const h = harness(() => Promise.resolve(json(200, { token: 42 })));
    const err = await failure(h.client.call(probe('/api/user', 'USER_SIGN_IN', z.object({ token: z.string() })), {}));
    expect(err.kind).toBe('invalid-response');
    expect(err.userMessage).toBe(MSG_SERVER_ERROR);
    expect(h.onError).toHaveBeenCalledWith(err);
  });
});

describe('error catalogue (farmer §8)', () => {
  it('401 emits unauthorized and no error notice', async () => {
    const h = harness(() => Promise.resolve(json(401, { message: 'Unauthorized' })));
    const err = await failure(h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {}));
    expect(err.status).toBe(401);
    expect(err.isUnauthorized).toBe(true);
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(h.onError).not.toHaveBeenCalled();
  });

  it.each([422, 429, 500, 510])('%i shows the server message', async (status) => {
    const h = harness(() => Promise.resolve(json(status, { message: `Farm not found (${status})` })));
    const err = await failure(h.client.call(probe('/api/farmer/setting', 'USER_SETTING_ALERT_GET'), {}));
    expect(err.status).toBe(status);
    expect(err.userMessage).toBe(`Farm not found (${status})`);
    expect(err.reload).toBe(false);
    expect(h.onError).toHaveBeenCalledWith(err);
    expect(h.onUnauthorized).not.toHaveBeenCalled();
  });

  it('keeps a message array as an array (the snackbar joins the lines)', async () => {
    const h = harness(() => Promise.resolve(json(422, { message: ['email is required', 'phone is required'] })));
    const err = await failure(h.client.call(probe('/api/user', 'USER_SIGN_UP'), {}));
    expect(err.userMessage).toEqual(['email is required', 'phone is required']);
    expect(err.message).toBe('email is required\nphone is required');
  });

  it('leaves the message to the snackbar default when the body has none', async () => {
    const h = harness(() => Promise.resolve(new Response('<html>oops</html>', { status: 500 })));
    const err = await failure(h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {}));
    expect(err.userMessage).toBeUndefined();
    expect(h.onError).toHaveBeenCalledWith(err);
  });

  it("'timeout-or-duplicate' reads 'An error occurred, please try again!' without a reload", async () => {
    const h = harness(() => Promise.resolve(json(422, { message: 'timeout-or-duplicate' })));
    const err = await failure(h.client.call(probe('/api/user', 'USER_SIGN_UP'), {}));
    expect(err.userMessage).toBe(MSG_TRY_AGAIN);
    expect(err.userMessage).toBe('An error occurred, please try again!');
    expect(err.reload).toBe(false);
  });

  it("'invalid-input-response' reads the same and asks for a reload", async () => {
    const h = harness(() => Promise.resolve(json(422, { message: ['invalid-input-response'] })));
    const err = await failure(h.client.call(probe('/api/user', 'USER_RESET_PASSWORD'), {}));
    expect(err.userMessage).toBe('An error occurred, please try again!');
    expect(err.reload).toBe(true);
  });

  it.each([400, 403, 404, 502, 503])('%i (any other status) reads Server Error!', async (status) => {
    const h = harness(() => Promise.resolve(json(status, { message: 'internal detail' })));
    const err = await failure(h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {}));
    expect(err.userMessage).toBe('Server Error!');
    expect(h.onError).toHaveBeenCalledWith(err);
  });

  it("no response at all reads 'Failed to execute'", async () => {
    const h = harness(() => Promise.reject(new TypeError('Failed to fetch')));
    const err = await failure(h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {}));
    expect(err.kind).toBe('network');
    expect(err.status).toBeUndefined();
    expect(err.userMessage).toBe(MSG_NO_RESPONSE);
    expect(h.onError).toHaveBeenCalledWith(err);
  });

  it('a cancelled request rejects as cancelled and is never announced', async () => {
    const controller = new AbortController();
    // Behaves like fetch: never answers by itself, rejects with an AbortError once the signal aborts.
    const h = harness(
      (init) =>
        new Promise<Response>((_resolve, reject) => {
          const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
          if (init?.signal?.aborted) abort();
          else init?.signal?.addEventListener('abort', abort);
        }),
    );
    const pending = h.client.call(probe('/api/farmer/activity', 'FARMER_MILKING_LIST'), { farm: 'F-1' }, { signal: controller.signal });
    controller.abort();
    const err = await failure(pending);
    expect(err.isCancelled).toBe(true);
    expect(h.fetch.mock.calls[0]?.[1]?.signal).toBe(controller.signal);
    expect(h.onError).not.toHaveBeenCalled();
    expect(h.onUnauthorized).not.toHaveBeenCalled();
  });

  it("a caller's own handler replaces the default notice", async () => {
    const h = harness(() => Promise.resolve(json(422, { message: 'Email already registered' })));
    const own = vi.fn<(e: ApiError) => void>();
    const err = await failure(h.client.call(probe('/api/user', 'USER_SIGN_UP'), {}, { onError: own }));
    expect(own).toHaveBeenCalledWith(err);
    expect(h.onError).not.toHaveBeenCalled();
  });

  it('a 401 still routes globally when the caller has its own handler', async () => {
    const h = harness(() => Promise.resolve(json(401, { message: 'Unauthorized' })));
    const own = vi.fn<(e: ApiError) => void>();
    await failure(h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {}, { onError: own }));
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(own).not.toHaveBeenCalled();
  });

  it('announce: false (start-up early calls) only rejects: no notice, no unauthorized routing', async () => {
    for (const status of [401, 500]) {
      const h = harness(() => Promise.resolve(json(status, { message: 'no' })));
      const err = await failure(h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {}, { announce: false }));
      expect(err.status).toBe(status);
      expect(h.onUnauthorized).not.toHaveBeenCalled();
      expect(h.onError).not.toHaveBeenCalled();
    }
  });

  it('stops notifying a listener after unsubscribe', async () => {
    const h = harness(() => Promise.resolve(json(500, { message: 'boom' })));
    const late = vi.fn();
    const off = h.client.on('error', late);
    off();
    await failure(h.client.call(probe('/api/user', 'USER_ONE_GET_BY_TOKEN'), {}));
    expect(late).not.toHaveBeenCalled();
    expect(h.onError).toHaveBeenCalledTimes(1);
  });
});

describe('call by contract', () => {
  const contract = {
    path: '/api/farmer/dashboard',
    type: 'PROBE',
    input: z.object({ type: z.literal('PROBE'), farm: z.string() }),
    answer: z.object({ n: z.number() }),
    access: { kind: 'self' },
  } as const;

  it("posts the contract's type and the fields to the contract's path and parses the answer with its schema", async () => {
    const h = harness(() => Promise.resolve(json(200, { n: 3, extra: true })));
    await expect(h.client.call(contract, { farm: 'f1' })).resolves.toEqual({ n: 3 });
    const { url, form } = sent(h);
    expect(url).toBe('https://api.example.test/api/farmer/dashboard');
    expect(Object.fromEntries(form)).toEqual({ type: 'PROBE', farm: 'f1' });
  });

  it('rejects an answer outside the contract', async () => {
    const h = harness(() => Promise.resolve(json(200, { n: 'three' })));
    await expect(h.client.call(contract, { farm: 'f1' })).rejects.toMatchObject({ kind: 'invalid-response' });
  });
});
