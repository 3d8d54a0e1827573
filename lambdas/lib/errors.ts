/**
 * Domain errors carry their meaning; `toHttpError` (http.ts) is the one place that turns them
 * into status codes (spec §8: 401, 403, 422, 429, 500).
 */
export abstract class AppError extends Error {
  abstract readonly status: 401 | 403 | 422 | 429;
  /** What the client is shown: a message or a list of messages (the snackbar joins arrays). */
  readonly messages: string | readonly string[];
  constructor(messages: string | readonly string[]) {
    super(Array.isArray(messages) ? messages.join('\n') : (messages as string));
    this.messages = messages;
    this.name = new.target.name;
  }
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
  constructor(message = 'Unauthorized') {
    super(message);
  }
}

export class ForbiddenError extends AppError {
  readonly status = 403;
  constructor(message = 'Forbidden') {
    super(message);
  }
}

/** Invalid input; the message is the spec's where it has one. Nothing was stored. */
export class ValidationError extends AppError {
  readonly status = 422;
}

export class ThrottledError extends AppError {
  readonly status = 429;
  constructor(message = 'Too many requests, please try again later.') {
    super(message);
  }
}

export function assertIsError(err: unknown): asserts err is Error {
  if (!(err instanceof Error)) throw new Error(`Non-error thrown: ${String(err)}`);
}
