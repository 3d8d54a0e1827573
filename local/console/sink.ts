import { asLogRecord, componentOf, humanLine, jsonObjectOf, type LogRecord } from './human-line';
import { openLogFiles, type LogFiles } from './log-files';

interface ConsoleSinkOptions {
  /** Where the JSON lines are kept (`.data/logs`). */
  readonly logDir: string;
  /** `json`: the JSON lines on the console as well, for machines (LOG_FORMAT=json). @default 'human' */
  readonly format?: 'human' | 'json';
  /** Colour on the human lines. @default whether stdout is a terminal and NO_COLOR is unset */
  readonly colour?: boolean;
  readonly streams?: readonly NodeJS.WriteStream[];
  readonly files?: LogFiles;
}

type Write = NodeJS.WriteStream['write'];

/**
 * The local stack's console for people: every JSON line written to stdout or stderr (the Lambdas'
 * loggers, the home-grown one or Powertools' Console, worker threads' output piped in, the
 * stand-ins') goes to `.data/logs/`, and the console gets one short human line for each log record
 * instead (none for a JSON line that is not a log record, such as a metrics line). Text that is
 * not JSON (the banner, the sign-in codes) passes as it is. Done at the stream, so it holds for any
 * logger that writes lines. Answers a function that puts the streams back.
 */
export const installConsoleSink = (options: ConsoleSinkOptions): (() => void) => {
  const format = options.format ?? 'human';
  const files = options.files ?? openLogFiles({ dir: options.logDir });
  const restores = (options.streams ?? [process.stdout, process.stderr]).map((stream) => {
    const original = stream.write.bind(stream) as (chunk: string) => boolean;
    const colour = options.colour ?? (stream.isTTY === true && !process.env.NO_COLOR);
    let pending = '';
    const repeats = repeatCounter((line) => original(`${line}\n`));
    const handleLine = (line: string) => {
      const json = jsonObjectOf(line);
      if (!json) return repeats.flush() && original(`${line}\n`);
      files.append(line);
      if (format === 'json') return original(`${line}\n`);
      const record = asLogRecord(json);
      if (!record) return true;
      return repeats.shown(record) ? repeats.flush() && original(`${humanLine(record, { colour })}\n`) : true;
    };
    const write = ((chunk: Uint8Array | string, encodingOrCallback?: BufferEncoding | ((err?: Error | null) => void), callback?: (err?: Error | null) => void): boolean => {
      const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : 'utf8';
      const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      let text = pending + (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(encoding));
      pending = '';
      let ok = true;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n')) {
        ok = handleLine(text.slice(0, end)) && ok;
        text = text.slice(end + 1);
      }
      // A partial JSON line waits for its end; other partial text (a prompt) is not held back.
      if (text.trimStart().startsWith('{')) pending = text;
      else if (text) ok = original(text) && ok;
      if (done) process.nextTick(done);
      return ok;
    }) as Write;
    stream.write = write;
    return () => {
      repeats.flush();
      if (stream.write === write) stream.write = original as Write;
    };
  });
  return () => {
    for (const restore of restores) restore();
    files.close();
  };
};

/** A burst of the same event shows its first lines on the console; the rest is counted, all are in the files. */
const SHOWN_IN_A_ROW = 3;

const repeatCounter = (print: (line: string) => boolean) => {
  let last = '';
  let inARow = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): boolean => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const hidden = inARow - SHOWN_IN_A_ROW;
    const [component, , message] = last.split('\u0000');
    inARow = Math.min(inARow, SHOWN_IN_A_ROW);
    return hidden > 0 ? print(`          ${(component ?? '').padEnd(16)} … ${hidden} more "${message ?? ''}" (all in .data/logs)`) : true;
  };
  return {
    flush,
    /** Whether the record gets a line of its own, or is one more of a burst. */
    shown: (r: LogRecord): boolean => {
      const key = [componentOf(r), r.level.toLowerCase(), r.message].join('\u0000');
      if (key !== last) {
        flush();
        last = key;
        inARow = 0;
      }
      inARow += 1;
      if (inARow <= SHOWN_IN_A_ROW) return true;
      // A burst that is the last thing said is still counted, a moment later.
      timer ??= setTimeout(() => void flush(), 1_000).unref();
      return false;
    },
  };
};

/** LOG_FORMAT=json keeps the JSON on the console; anything else (or nothing) is for people. */
export const consoleFormatFromEnv = (env: NodeJS.ProcessEnv = process.env): 'human' | 'json' => (env.LOG_FORMAT?.toLowerCase() === 'json' ? 'json' : 'human');
