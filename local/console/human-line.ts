import { styleText } from 'node:util';

/**
 * One JSON log line as the Lambdas' loggers write it: the home-grown one (`level: 'info'`, `time`)
 * and Powertools' (`level: 'INFO'`, `timestamp`, `service`). Anything else is not a log record.
 */
export interface LogRecord {
  readonly level: string;
  readonly message: string;
  readonly [key: string]: unknown;
}

/** A whole line that is a JSON object (a log record, or a metrics line with no level). */
export const jsonObjectOf = (line: string): Record<string, unknown> | undefined => {
  const text = line.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

export const asLogRecord = (value: Record<string, unknown>): LogRecord | undefined =>
  typeof value.level === 'string' && typeof value.message === 'string' ? (value as LogRecord) : undefined;

/** Keys that say who wrote the line or are bookkeeping: not repeated after the message. */
const QUIET_KEYS = new Set([
  'level', 'time', 'timestamp', 'message', 'service', 'component', 'function', 'part', 'endpoint',
  'cold_start', 'function_name', 'function_memory_size', 'function_arn', 'function_request_id',
  'xray_trace_id', 'sampling_rate', 'stack',
]);
const MAX_DETAIL = 110;

/** Who wrote it: the stand-in or function, with its part (`ingest/alerts`). Powertools' unset service says nothing. */
export const componentOf = (r: Record<string, unknown>): string => {
  const name = [r.component, r.function, r.endpoint, r.service, r.function_name].find(
    (v): v is string => typeof v === 'string' && v !== '' && v !== 'service_undefined',
  );
  const base = name ?? 'local';
  return typeof r.part === 'string' ? `${base}/${r.part}` : base;
};

const scalar = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v.length > 40 ? `${v.slice(0, 39)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
};

/** The record's own fields after the message, short: scalars as key=value, an error by its message. */
const detailOf = (r: LogRecord): string => {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(r)) {
    if (QUIET_KEYS.has(key)) continue;
    if ((key === 'err' || key === 'error') && value && typeof value === 'object' && 'message' in value) parts.push(`${key}=${String((value as { message: unknown }).message)}`);
    else {
      const s = scalar(value);
      if (s !== undefined) parts.push(`${key}=${s}`);
    }
  }
  const text = parts.join(' ');
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
};

/** What a reader's eye should catch: faults (warnings, errors, injected device faults) and alerts. */
const emphasisOf = (r: LogRecord): 'fault' | 'alert' | undefined => {
  const level = r.level.toLowerCase();
  if (['warn', 'error', 'critical', 'fatal'].includes(level) || /\bfault/i.test(r.message)) return 'fault';
  if (/\balert/i.test(r.message) || 'alert' in r) return 'alert';
  return undefined;
};

const clock = (r: LogRecord, now: Date): string => {
  const at = new Date(typeof r.time === 'string' ? r.time : typeof r.timestamp === 'string' ? r.timestamp : now.getTime());
  const d = Number.isNaN(at.getTime()) ? now : at;
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
};

/**
 * One short line a person reads: the time on this machine's clock (HH:MM:SS), who wrote it, the
 * message and its short details; faults in red (warnings yellow) and alerts in magenta when `colour`.
 */
export const humanLine = (r: LogRecord, options: { readonly colour: boolean; readonly now?: Date }): string => {
  const level = r.level.toLowerCase();
  const detail = detailOf(r);
  const mark = level === 'info' || level === 'debug' ? '' : `${level.toUpperCase()} `;
  const text = `${clock(r, options.now ?? new Date())}  ${componentOf(r).padEnd(16)} ${mark}${r.message}${detail ? `  ${detail}` : ''}`;
  if (!options.colour) return text;
  // Whether to colour is decided by the caller (the stream it writes to), not by styleText's own look at stdout.
  const paint = (format: Parameters<typeof styleText>[0]) => styleText(format, text, { validateStream: false });
  const emphasis = emphasisOf(r);
  if (emphasis === 'fault') return paint(level === 'warn' ? 'yellow' : 'red');
  if (emphasis === 'alert') return paint('magenta');
  return level === 'debug' ? paint('dim') : text;
};
