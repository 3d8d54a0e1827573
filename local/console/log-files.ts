import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

interface LogFilesOptions {
  /** Where the files go (`.data/logs`). */
  readonly dir: string;
  /** A day's file is continued in a new part past this size. @default 50 MB */
  readonly maxFileBytes?: number;
  /** The newest files kept; older ones are deleted when a new one is opened. @default 14 */
  readonly keepFiles?: number;
  readonly now?: () => Date;
}

export interface LogFiles {
  /** One JSON line, appended as it comes (a synchronous write: nothing is lost when the process exits). */
  append(line: string): void;
  /** The file written now. */
  current(): string;
  close(): void;
}

const dayOf = (d: Date) => [d.getFullYear(), d.getMonth() + 1, d.getDate()].map((n) => String(n).padStart(2, '0')).join('-');

/**
 * The local stack's JSON log lines, one file a day on this machine's calendar
 * (`2026-11-29.jsonl`, then `2026-11-29.2.jsonl` past the size cap), the newest `keepFiles` kept:
 * a stack left running for weeks cannot fill the disk.
 */
export const openLogFiles = ({ dir, maxFileBytes = 50 * 1024 * 1024, keepFiles = 14, now = () => new Date() }: LogFilesOptions): LogFiles => {
  mkdirSync(dir, { recursive: true });
  let fd: number | undefined;
  let path = '';
  let day = '';
  let part = 1;
  let size = 0;

  const prune = () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at || b.f.localeCompare(a.f));
    for (const { f } of files.slice(keepFiles)) if (join(dir, f) !== path) rmSync(join(dir, f), { force: true });
  };
  const open = () => {
    if (fd !== undefined) closeSync(fd);
    path = join(dir, part === 1 ? `${day}.jsonl` : `${day}.${part}.jsonl`);
    fd = openSync(path, 'a');
    size = statSync(path).size;
    prune();
  };
  const ensure = (bytes: number) => {
    const today = dayOf(now());
    if (today !== day) {
      day = today;
      part = 1;
      open();
    }
    // A part already full (an earlier start's) is skipped, not grown.
    while (size > 0 && size + bytes > maxFileBytes) {
      part += 1;
      open();
    }
  };

  return {
    append: (line) => {
      const text = line.endsWith('\n') ? line : `${line}\n`;
      const bytes = Buffer.byteLength(text);
      ensure(bytes);
      writeSync(fd as number, text);
      size += bytes;
    },
    current: () => {
      ensure(0);
      return path;
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      day = '';
    },
  };
};
