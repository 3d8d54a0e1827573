/**
 * The error catalogue of farmer spec §8, as data: the API client attaches the message the user
 * should see to every error it raises; the app shell decides how to show it.
 */

/** Statuses whose body carries a message meant for the user (farmer spec §8). */
const MESSAGE_STATUSES: readonly number[] = [422, 429, 500, 510];

export const MSG_TRY_AGAIN = 'An error occurred, please try again!';
export const MSG_SERVER_ERROR = 'Server Error!';
export const MSG_NO_RESPONSE = 'Failed to execute';

/** Bot-check answers from the server (reCAPTCHA's error codes, passed through). */
const TIMEOUT_OR_DUPLICATE = 'timeout-or-duplicate';
const INVALID_INPUT_RESPONSE = 'invalid-input-response';

type ApiErrorKind =
  /** The server answered with a non-2xx status. */
  | 'http'
  /** No response at all (network down, CORS, DNS). */
  | 'network'
  /** The caller aborted the request: never shown to the user. */
  | 'cancelled'
  /** A 2xx answer that does not match the caller's schema. */
  | 'invalid-response';

export type UserMessage = string | readonly string[];

interface ApiErrorInit {
  readonly kind: ApiErrorKind;
  readonly status?: number;
  /** The `message` of the server's JSON error body, if any. */
  readonly serverMessage?: UserMessage;
  readonly cause?: unknown;
}

const textOf = (message: UserMessage): string => (typeof message === 'string' ? message : message.join('\n'));

const hasCode = (message: UserMessage | undefined, code: string): boolean =>
  message !== undefined && (typeof message === 'string' ? message === code : message.includes(code));

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status; undefined when there was no response. */
  readonly status: number | undefined;
  readonly serverMessage: UserMessage | undefined;
  /**
   * What the user should read. Undefined when the server sent no message for a status that
   * expects one: the snackbar then shows its default text.
   */
  readonly userMessage: UserMessage | undefined;
  /** The bot-check token was rejected: the page must reload to get a fresh one. */
  readonly reload: boolean;

  constructor(init: ApiErrorInit) {
    const { userMessage, reload } = catalogue(init);
    super(userMessage === undefined ? `API error ${init.status ?? init.kind}` : textOf(userMessage), { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.userMessage = userMessage;
    this.reload = reload;
  }

  get isUnauthorized(): boolean {
    return this.kind === 'http' && this.status === 401;
  }

  get isCancelled(): boolean {
    return this.kind === 'cancelled';
  }
}

const catalogue = (init: ApiErrorInit): { userMessage: UserMessage | undefined; reload: boolean } => {
  switch (init.kind) {
    case 'cancelled':
      return { userMessage: undefined, reload: false };
    case 'network':
      return { userMessage: MSG_NO_RESPONSE, reload: false };
    case 'invalid-response':
      return { userMessage: MSG_SERVER_ERROR, reload: false };
    case 'http':
      break;
  }
  const status = init.status ?? 0;
  if (status === 401) return { userMessage: undefined, reload: false };
  if (!MESSAGE_STATUSES.includes(status)) return { userMessage: MSG_SERVER_ERROR, reload: false };
  const message = init.serverMessage;
  if (hasCode(message, INVALID_INPUT_RESPONSE)) return { userMessage: MSG_TRY_AGAIN, reload: true };
  if (hasCode(message, TIMEOUT_OR_DUPLICATE)) return { userMessage: MSG_TRY_AGAIN, reload: false };
  return { userMessage: message, reload: false };
};

/** What a screen says for a failed request: the ApiError's message for the user (lines joined by a space), else `fallback`. */
export const errorTextOf = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.userMessage !== undefined
    ? typeof error.userMessage === 'string'
      ? error.userMessage
      : error.userMessage.join(' ')
    : fallback;
