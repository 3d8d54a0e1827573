import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../lambdas/lib/logger';
import { humanLine, jsonObjectOf } from './human-line';
import { openLogFiles } from './log-files';
import { consoleFormatFromEnv, installConsoleSink } from './sink';

const fakeStream = (isTTY = false) => {
  const written: string[] = [];
  const stream = { isTTY, write: (chunk: string | Uint8Array) => written.push(String(chunk)) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, console: () => written.join('') };
};
const ESC = '\u001b';
const tempDir = () => mkdtempSync(join(tmpdir(), 'vatman-console-'));
const fileLines = (dir: string) =>
  readdirSync(dir)
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter(Boolean);
const jsonLinesOf = (text: string) => text.split('\n').filter((l) => jsonObjectOf(l) !== undefined);

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe('the local console sink', () => {
  it('turns each JSON log line of the home-grown logger into one short human line and keeps the JSON in .data/logs', () => {
    const dir = tempDir();
    const out = fakeStream();
    restore = installConsoleSink({ logDir: dir, streams: [out.stream] });
    const log = createLogger({ function: 'alert-sweep' }, 'info', (line) => out.stream.write(`${line}\n`));
    log.info('alert raised', { farm: 'farm-pro', type: 101 });
    log.error('scheduled target failed', { name: 'watchman', err: new Error('boom') });
    const text = out.console();
    expect(jsonLinesOf(text)).toEqual([]);
    expect(text).toMatch(/^\d\d:\d\d:\d\d {2}alert-sweep +alert raised {2}farm=farm-pro type=101\n/);
    expect(text).toMatch(/\d\d:\d\d:\d\d {2}alert-sweep +ERROR scheduled target failed {2}name=watchman err=boom\n$/);
    const kept = fileLines(dir).map((l) => JSON.parse(l) as { message: string });
    expect(kept.map((r) => r.message)).toEqual(['alert raised', 'scheduled target failed']);
  });

  it("routes Powertools Logger's lines (its own Console on process.stdout and stderr) the same way", () => {
    const dir = tempDir();
    const captured = { stdout: [] as string[], stderr: [] as string[] };
    const originals = { stdout: process.stdout.write, stderr: process.stderr.write };
    process.stdout.write = ((c: string) => captured.stdout.push(String(c)) > 0) as typeof process.stdout.write;
    process.stderr.write = ((c: string) => captured.stderr.push(String(c)) > 0) as typeof process.stderr.write;
    const unsink = installConsoleSink({ logDir: dir, colour: false });
    try {
      const logger = new Logger({ serviceName: 'ingest' });
      logger.info('messages ingested', { count: 12 });
      logger.error('ingest failed', { error: new Error('socket hang up') });
    } finally {
      unsink();
      process.stdout.write = originals.stdout;
      process.stderr.write = originals.stderr;
    }
    const text = captured.stdout.join('') + captured.stderr.join('');
    expect(jsonLinesOf(text)).toEqual([]);
    expect(text).toMatch(/\d\d:\d\d:\d\d {2}ingest +messages ingested {2}count=12\n/);
    expect(text).toMatch(/ingest +ERROR ingest failed {2}error=socket hang up\n/);
    const kept = fileLines(dir).map((l) => JSON.parse(l) as { level: string; message: string; service: string });
    expect(kept.map((r) => [r.level, r.message, r.service])).toEqual([['INFO', 'messages ingested', 'ingest'], ['ERROR', 'ingest failed', 'ingest']]);
  });

  it('joins a JSON line split across writes (a worker thread piping its output), and passes other text as it is', () => {
    const dir = tempDir();
    const out = fakeStream();
    restore = installConsoleSink({ logDir: dir, streams: [out.stream] });
    out.stream.write('\n  Vat-Man is running locally.\n');
    out.stream.write('{"level":"info","time":"2026-11-29T09:00:00.000Z",');
    out.stream.write(Buffer.from('"message":"watchman run","function":"watchman"}\n{"level":"warn","message":"half'));
    out.stream.write('"}\nprompt> ');
    const text = out.console();
    expect(text.startsWith('\n  Vat-Man is running locally.\n')).toBe(true);
    expect(text).toMatch(/\d\d:\d\d:\d\d {2}watchman +watchman run\n/);
    expect(text).toMatch(/local +WARN half\nprompt> $/);
    expect(fileLines(dir)).toHaveLength(2);
  });

  it('keeps a JSON line that is not a log record (a metrics line) off the console, in the files', () => {
    const dir = tempDir();
    const out = fakeStream();
    restore = installConsoleSink({ logDir: dir, streams: [out.stream] });
    out.stream.write(`${JSON.stringify({ _aws: { Timestamp: 1, CloudWatchMetrics: [] }, MessagesIngested: 3 })}\n`);
    expect(out.console()).toBe('');
    expect(fileLines(dir)).toHaveLength(1);
  });

  it('with LOG_FORMAT=json, gives the JSON lines on the console as well', () => {
    expect(consoleFormatFromEnv({ LOG_FORMAT: 'json' })).toBe('json');
    expect(consoleFormatFromEnv({})).toBe('human');
    const dir = tempDir();
    const out = fakeStream();
    restore = installConsoleSink({ logDir: dir, streams: [out.stream], format: 'json' });
    const line = JSON.stringify({ level: 'info', message: 'alert raised' });
    out.stream.write(`${line}\n`);
    expect(out.console()).toBe(`${line}\n`);
    expect(fileLines(dir)).toEqual([line]);
  });

  it('shows the first lines of a burst of one event and counts the rest', () => {
    const dir = tempDir();
    const out = fakeStream();
    restore = installConsoleSink({ logDir: dir, streams: [out.stream] });
    for (let i = 0; i < 10; i += 1) out.stream.write(`${JSON.stringify({ level: 'error', message: 'ingest failed', function: 'ingest', n: i })}\n`);
    out.stream.write(`${JSON.stringify({ level: 'info', message: 'watchman run', function: 'watchman' })}\n`);
    const lines = out.console().trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[3]).toContain('… 7 more "ingest failed"');
    expect(lines[4]).toContain('watchman run');
    expect(fileLines(dir)).toHaveLength(11);
  });

  it('highlights faults and alerts in colour when asked (a terminal), and never otherwise', () => {
    const at = '2026-11-29T09:00:00.000Z';
    expect(humanLine({ level: 'error', message: 'ingest failed', time: at }, { colour: true })).toMatch(new RegExp(`^${ESC}\\[31m`));
    expect(humanLine({ level: 'WARN', message: 'lease lost', time: at }, { colour: true })).toMatch(new RegExp(`^${ESC}\\[33m`));
    expect(humanLine({ level: 'info', message: 'alert raised', time: at }, { colour: true })).toMatch(new RegExp(`^${ESC}\\[35m`));
    expect(humanLine({ level: 'info', message: 'simulator: fault on vm-1', time: at }, { colour: true })).toMatch(new RegExp(`^${ESC}\\[31m`));
    expect(humanLine({ level: 'info', message: 'watchman run', time: at }, { colour: true })).not.toContain('\u001b[');
    expect(humanLine({ level: 'error', message: 'ingest failed', time: at }, { colour: false })).not.toContain('\u001b[');
  });
});

describe('the log files', () => {
  it('writes one file a day, continues in a new part past the size cap, and keeps only the newest files', () => {
    const dir = tempDir();
    for (let d = 1; d <= 5; d += 1) {
      writeFileSync(join(dir, `2026-10-0${d}.jsonl`), '{}\n');
      utimesSync(join(dir, `2026-10-0${d}.jsonl`), new Date(2026, 9, d), new Date(2026, 9, d));
    }
    let now = new Date(2026, 10, 29, 23, 59);
    const files = openLogFiles({ dir, maxFileBytes: 100, keepFiles: 3, now: () => now });
    files.append(JSON.stringify({ level: 'info', message: 'x'.repeat(60) }));
    expect(files.current()).toBe(join(dir, '2026-11-29.jsonl'));
    files.append(JSON.stringify({ level: 'info', message: 'y'.repeat(60) }));
    expect(files.current()).toBe(join(dir, '2026-11-29.2.jsonl'));
    now = new Date(2026, 10, 30, 0, 1);
    files.append('{"level":"info","message":"next day"}');
    expect(files.current()).toBe(join(dir, '2026-11-30.jsonl'));
    files.close();
    expect(readdirSync(dir).sort()).toEqual(['2026-11-29.2.jsonl', '2026-11-29.jsonl', '2026-11-30.jsonl']);
  });
});
