import { appendFileSync } from 'node:fs';

/**
 * One structured logger: JSON lines to stdout (CloudWatch in AWS, the console locally), with
 * keys appended per request (farm, user, type). Under the tests, VATMAN_LOG_FILE sends the lines
 * to a file instead (test/support/quiet-logs.ts prints a failing test's lines), so a green
 * `npm test` prints test results, not the stacks' logs.
 */
type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
  child(keys: Record<string, unknown>): Logger;
}

const defaultSink = (line: string): void => {
  const file = process.env.VATMAN_LOG_FILE;
  if (file) appendFileSync(file, `${line}\n`);
  else process.stdout.write(`${line}\n`);
};

const serialise = (value: unknown): unknown =>
  value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;

export const createLogger = (
  keys: Record<string, unknown> = {},
  level: LogLevel = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info',
  write: (line: string) => void = defaultSink,
): Logger => {
  const log = (lvl: LogLevel, message: string, extra: Record<string, unknown> = {}) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const fields = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, serialise(v)]));
    write(JSON.stringify({ level: lvl, time: new Date().toISOString(), message, ...keys, ...fields }));
  };
  return {
    debug: (m, e) => log('debug', m, e),
    info: (m, e) => log('info', m, e),
    warn: (m, e) => log('warn', m, e),
    error: (m, e) => log('error', m, e),
    child: (more) => createLogger({ ...keys, ...more }, level, write),
  };
};
