import type * as z from 'zod';
import type { ActionAddress, Contract, ContractAnswer, ContractFields } from '@shared/api/contract';
import { ApiError, type UserMessage } from './api-error';

/**
 * The one client for the spec §7 protocol: every call is a POST of a form-encoded body whose
 * `type` field selects the action. Object-valued fields (user, item, alert_setting, equipment,
 * products …) travel as JSON text, as shared/api/fields.ts `jsonField` expects on the server.
 *
 * It has no UI side effects: a failed call rejects with an ApiError and is announced on the
 * client's events; the app shell subscribes (snackbar, redirect).
 */

type FieldValue = string | number | boolean | object | Blob | null | undefined;
/** Action fields besides `type`; `undefined` and `null` values are left out. */
export type ApiFields = Readonly<Record<string, FieldValue>>;

interface RequestOptions<T> {
  /** Parses the answer; a mismatch rejects with an ApiError of kind 'invalid-response'. */
  readonly schema?: z.ZodType<T>;
  /** An aborted request rejects with kind 'cancelled' and is never announced. */
  readonly signal?: AbortSignal;
  /**
   * Replaces the default notice (the 'error' event, which the shell shows in the snackbar).
   * A 401 still goes to the global 'unauthorized' event instead.
   */
  readonly onError?: (error: ApiError) => void;
  /**
   * False: a failure only rejects, announced to nobody, not even a 401 (start-up's early calls,
   * lib/early-call.ts, whose taker calls again and announces its own failure).
   */
  readonly announce?: boolean;
}

export interface ApiClientEvents {
  /** A 401: the shell routes by role (farmer §6, operator §4). */
  readonly unauthorized: (error: ApiError) => void;
  /** Any other failure the caller did not handle itself (cancelled requests excluded). */
  readonly error: (error: ApiError) => void;
}

export type CallOptions = Omit<RequestOptions<unknown>, 'schema'>;

export interface ApiClient {
  /**
   * Calls an action by its contract (shared/api/contract.ts): posts to the contract's path with its
   * type and the fields, and parses the answer with the contract's answer schema.
   */
  call<C extends Contract>(contract: C, fields: ContractFields<C>, options?: CallOptions): Promise<ContractAnswer<C>>;
  /**
   * Sends an action by its address alone and answers the body unchecked (start-up's early calls,
   * lib/early-call.ts, which go out before the contracts' schemas have loaded): whoever takes the
   * answer checks it with `checkAnswer`.
   */
  send(address: ActionAddress, fields: ApiFields, options?: CallOptions): Promise<unknown>;
  /** Subscribes; returns the unsubscribe function. */
  on<E extends keyof ApiClientEvents>(event: E, listener: ApiClientEvents[E]): () => void;
}

interface ApiClientDeps {
  /** The API's base URL from config.json; paths such as '/api/user' are appended. */
  readonly apiUrl: string;
  /** The current access token, or undefined when signed out. */
  readonly getAccessToken: () => Promise<string | undefined>;
  readonly fetch?: typeof fetch;
}

export const encodeForm = (type: string, fields: ApiFields = {}): URLSearchParams => {
  const body = new URLSearchParams({ type });
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'type' || value === undefined || value === null) continue;
    body.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return body;
};

/**
 * A form with a file (a Blob or File value; the admin farm settings upload, operator §7) goes as
 * multipart/form-data, the file under its field name with its file name; the other fields as text
 * as in encodeForm.
 */
const hasFile = (fields: ApiFields = {}): boolean => Object.values(fields).some((v) => typeof Blob !== 'undefined' && v instanceof Blob);
const encodeMultipart = (type: string, fields: ApiFields = {}): FormData => {
  const form = new FormData();
  form.append('type', type);
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'type' || value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(key, value, value instanceof File ? value.name : key);
    else form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return form;
};

const readBody = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Some actions answer plain text ('logged_in', 'success', 'YES').
    return text;
  }
};

/** Error bodies are `{ "message": string | string[] }` (API Gateway's own 401/5xx answers too). */
const serverMessageOf = (body: unknown): UserMessage | undefined => {
  if (body === null || typeof body !== 'object' || !('message' in body)) return undefined;
  const { message } = body;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && message.every((m): m is string => typeof m === 'string')) return message;
  return undefined;
};

/** A body parsed by `schema`, or an ApiError of kind 'invalid-response'. */
const parseAnswer = <T,>(schema: z.ZodType<T>, body: unknown, status?: number): T => {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError({ kind: 'invalid-response', status, cause: parsed.error });
  return parsed.data;
};

/** An answer `send` gave, checked against its contract as `call` checks it. */
export const checkAnswer = <C extends Contract>(contract: C, body: unknown): ContractAnswer<C> =>
  parseAnswer(contract.answer as z.ZodType<ContractAnswer<C>>, body);

const isAbort = (err: unknown, signal: AbortSignal | undefined): boolean =>
  signal?.aborted === true || (err instanceof Error && err.name === 'AbortError');

export const createApiClient = ({ apiUrl, getAccessToken, fetch: fetchFn = fetch }: ApiClientDeps): ApiClient => {
  const base = apiUrl.replace(/\/+$/, '');
  const listeners: { [E in keyof ApiClientEvents]: Set<ApiClientEvents[E]> } = {
    unauthorized: new Set(),
    error: new Set(),
  };

  const announce = (error: ApiError, onError: ((error: ApiError) => void) | undefined): void => {
    if (error.isCancelled) return;
    if (error.isUnauthorized) {
      for (const listener of listeners.unauthorized) listener(error);
      return;
    }
    if (onError) onError(error);
    else for (const listener of listeners.error) listener(error);
  };

  const token = async (): Promise<string | undefined> => {
    try {
      return await getAccessToken();
    } catch {
      // No session (or it could not be refreshed): send the call without a bearer and let the
      // server's 401 drive the unauthorized routing.
      return undefined;
    }
  };

  const send = async <T>(path: string, type: string, fields: ApiFields | undefined, options: RequestOptions<T>): Promise<T> => {
    const { schema, signal } = options;
    const multipart = hasFile(fields);
    // A multipart body's Content-Type (with its boundary) is set by fetch itself.
    const headers: Record<string, string> = {
      ...(multipart ? {} : { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' }),
      Accept: 'application/json, text/plain, */*',
    };
    const accessToken = await token();
    if (accessToken) headers.Authorization = `Bearer ${accessToken}`;

    let response: Response;
    let body: unknown;
    try {
      response = await fetchFn(`${base}${path}`, { method: 'POST', headers, body: multipart ? encodeMultipart(type, fields) : encodeForm(type, fields), signal, credentials: 'omit' });
      body = await readBody(response);
    } catch (err) {
      throw new ApiError({ kind: isAbort(err, signal) ? 'cancelled' : 'network', cause: err });
    }

    if (!response.ok) throw new ApiError({ kind: 'http', status: response.status, serverMessage: serverMessageOf(body) });
    return schema ? parseAnswer(schema, body, response.status) : (body as T);
  };

  const post = async <T,>(path: string, type: string, fields: ApiFields | undefined, options: RequestOptions<T> = {}): Promise<T> => {
    try {
      return await send(path, type, fields, options);
    } catch (err) {
      const error = err instanceof ApiError ? err : new ApiError({ kind: 'network', cause: err });
      if (options.announce !== false) announce(error, options.onError);
      throw error;
    }
  };

  return {
    call: (contract, fields, options = {}) =>
      post(contract.path, contract.type, fields as ApiFields, { ...options, schema: contract.answer as z.ZodType<ContractAnswer<typeof contract>> }),
    send: (address, fields, options = {}) => post<unknown>(address.path, address.type, fields, options),
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
};
