import { appendFileSync } from 'node:fs';
import { Logger as PowertoolsLogger, type LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';

/**
 * The one logger: Powertools for AWS Lambda's Logger (one JSON object a line: level, message,
 * timestamp, service, and after `injectLambdaContext` / `addContext` the request id, cold start and
 * function name), with keys appended per request (farm, user, type).
 *
 * Where the lines go: stdout, every level (Powertools alone sends warnings and errors to stderr;
 * in Lambda both reach the same log stream, and locally the console reads JSON lines from stdout).
 * Under the tests VATMAN_LOG_FILE sends them to a file instead (test/support/quiet-logs.ts prints a
 * failing test's lines), so a green `npm test` prints test results, not the stacks' logs. The level
 * is POWERTOOLS_LOG_LEVEL, else LOG_LEVEL, else info.
 *
 * Never a token, an email address or a phone number: values under the keys that carry them and any
 * string that looks like one are replaced before the line is written (`redact`), whatever an action
 * or an error message put in it.
 */
type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
  /** The same logger with more keys on each line (a part of the function, a request's farm and user). */
  child(keys: Record<string, unknown>): Logger;
}

export const REDACTED = '[redacted]';

/** Keys whose values are secrets or personal contact details, whatever their shape. */
const SECRET_KEY = /^(e-?mail|email_?address|phone|phone_?number|mobile|password|new_?password|old_?password|previous_?password|(access|id|refresh|bearer|session)_?token|token|authorization|secret|verification|verification_?code|otp|totp_?code|recaptcha|captcha)$/i;
/** A JWT (an access, ID or refresh token of Cognito): three base64url parts. */
const JWT = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g;
const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
/** An international phone number as people write it (+64 27 555 0100, +6427-555-0100). */
const PHONE = /\+\d[\d\s().-]{6,}\d/g;
/** A bearer in a header-like string. */
const BEARER = /\bBearer\s+\S+/gi;

const redactString = (s: string): string => s.replace(JWT, REDACTED).replace(BEARER, `Bearer ${REDACTED}`).replace(EMAIL, REDACTED).replace(PHONE, REDACTED);

/** What a log line shows of one value (a JSON.stringify replacer's step: `key` is the property name). */
export const redact = (key: string, value: unknown): unknown => {
  if (value === undefined || value === null) return value;
  if (key !== '' && SECRET_KEY.test(key)) return REDACTED;
  return typeof value === 'string' ? redactString(value) : value;
};

type LogSink = (line: string) => void;

const defaultSink: LogSink = (line) => {
  const file = process.env.VATMAN_LOG_FILE;
  if (file) appendFileSync(file, `${line}\n`);
  else process.stdout.write(`${line}\n`);
};

const LEVEL_NAMES: Record<LogLevel, 'DEBUG' | 'INFO' | 'WARN' | 'ERROR'> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' };

/**
 * Powertools' Logger writing through a sink. Powertools' own serialising (errors with their
 * location and stack, bigints, sets) runs first, then `redact` on every value.
 */
export class VatManLogger extends PowertoolsLogger {
  // Not a parameter property: Powertools may print (its own warnings) from inside super(), before fields are set.
  private sinkFn: LogSink | undefined;

  constructor(options: ConstructorParameters<typeof PowertoolsLogger>[0] = {}, sink?: LogSink) {
    super(options);
    this.sinkFn = sink;
  }

  protected override printLog(_level: number, log: LogItem): void {
    log.prepareForPrint();
    const powertools = this.getJsonReplacer();
    const line = JSON.stringify(log.getAttributes(), (key, value: unknown) => redact(key, powertools(key, value)));
    (this.sinkFn ?? defaultSink)(line);
  }

  protected override createLogger(options?: ConstructorParameters<typeof PowertoolsLogger>[0]): VatManLogger {
    return new VatManLogger(options, this.sinkFn);
  }
}

/** A function's root logger: the Logger its code uses, and the Powertools instance its middlewares inject the Lambda context into. */
export interface FunctionLogger extends Logger {
  readonly powertools: VatManLogger;
}

/**
 * A child shares its root's instance, so the request id and cold start that `injectLambdaContext`
 * puts on the root reach the lines of every part (Powertools' own `createChild` copies them once,
 * when made: a part made at cold start would miss every later request's id).
 */
const childOf = (root: VatManLogger, keys: Record<string, unknown>): Logger => {
  // Powertools types extra keys as JSON-like values; ours may be anything (an error, a Date): the replacer above serialises them.
  const at = (level: LogLevel) => (message: string, extra: Record<string, unknown> = {}) => root[level](message, { ...keys, ...extra } as LogAttributes);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (more) => childOf(root, { ...keys, ...more }) };
};

/**
 * A root logger. `keys` are on every line (`function: 'ingest'`, `endpoint: '/api/user'`); `level`
 * overrides the environment's (tests ask for 'error'); `sink` receives each JSON line (tests collect them).
 */
export const createLogger = (keys: Record<string, unknown> = {}, level?: LogLevel, sink?: LogSink): FunctionLogger => {
  // `service` is Powertools' own key (its serviceName): as a persistent key it would be dropped with a warning line.
  const { service, ...rest } = keys;
  const powertools = new VatManLogger(
    { ...(typeof service === 'string' ? { serviceName: service } : {}), persistentKeys: rest as LogAttributes, ...(level ? { logLevel: LEVEL_NAMES[level] } : {}) },
    sink,
  );
  return { ...childOf(powertools, {}), powertools };
};
