/**
 * Setup of the node and browser test projects: the local stacks' JSON log lines (every Lambda,
 * the stand-ins) go to a file per test process instead of the console, and a failing test prints
 * the lines written while it ran. A green `npm test` prints test results only.
 */
import '../../local/quiet-warnings';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

const file = join(tmpdir(), `vatman-test-logs-${process.pid}.jsonl`);
process.env.VATMAN_LOG_FILE = file;
if (!existsSync(file)) writeFileSync(file, '');

/** What a failing test prints of its stacks' logs: the newest lines, at most this many. */
const MAX_LINES = 200;
let offset = 0;

beforeEach(() => {
  offset = existsSync(file) ? statSync(file).size : 0;
});

afterEach((ctx) => {
  if (ctx.task.result?.state !== 'fail' || !existsSync(file)) return;
  const lines = readFileSync(file).subarray(offset).toString('utf8').trim().split('\n').filter(Boolean);
  if (lines.length === 0) return;
  console.error(`--- logs of the local stack during "${ctx.task.name}" (last ${Math.min(MAX_LINES, lines.length)} of ${lines.length}) ---\n${lines.slice(-MAX_LINES).join('\n')}`);
});
