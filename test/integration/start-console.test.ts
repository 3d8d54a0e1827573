import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TCP_PORTS } from '../../local/tcp-ports';
import { fakeDist } from '../support/local-stack';

/**
 * `npm start` as a person runs it (the real entry, its own process, a fresh data folder): its
 * first minute on the console is for reading, banner and short lines, never a JSON line; the JSON
 * lines are in `.data/logs/`. Ports from a fixed range of their own (41220-41239), apart from the
 * other tests' stacks.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIRST_PORT = 41220;
const WATCHED_MS = 90_000;
const CAUGHT_UP = 'Watchman ran on the caught-up demo data';

const isJson = (line: string): boolean => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

describe('npm start on a fresh data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vatman-console-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints the banner and short human lines, no JSON line, in its first minute; the JSON lines go to .data/logs', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, VATMAN_DATA_DIR: dataDir, VATMAN_WEB_DIST: fakeDist(), NO_COLOR: '1' };
    // As a person's shell has it: not the test runner's log file nor its answer checks.
    for (const key of Object.keys(env)) if (key === 'VATMAN_LOG_FILE' || key.startsWith('VITEST') || key === 'LOG_FORMAT') delete env[key];
    Object.values(TCP_PORTS).forEach(({ env: name }, i) => {
      env[name] = String(FIRST_PORT + i);
    });
    const proc = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let output = '';
    proc.stdout?.setEncoding('utf8').on('data', (s: string) => (output += s));
    proc.stderr?.setEncoding('utf8').on('data', (s: string) => (output += s));
    const started = Date.now();
    // The first minute or so, or until the 48-hour catch-up and the Watchman run after it are done.
    while (Date.now() - started < WATCHED_MS && !output.includes(CAUGHT_UP) && proc.exitCode === null) await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<number | null>((resolve) => (proc.exitCode !== null ? resolve(proc.exitCode) : proc.once('exit', (code) => resolve(code))));
    proc.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);

    expect(output).toContain('Vat-Man is running locally.');
    expect(output).toContain('Demo sign-ins');
    const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
    expect(lines.filter(isJson)).toEqual([]);
    // Each event a short line: HH:MM:SS, who, what.
    expect(lines.filter((l) => /^\d\d:\d\d:\d\d {2}\S+ +\S/.test(l)).length).toBeGreaterThan(0);
    expect(code).toBe(0);

    const logDir = join(dataDir, 'logs');
    expect(existsSync(logDir)).toBe(true);
    const kept = readdirSync(logDir).flatMap((f) => readFileSync(join(logDir, f), 'utf8').split('\n').filter(Boolean));
    expect(kept.length).toBeGreaterThan(0);
    const records = kept.map((l) => JSON.parse(l) as { level?: unknown; message?: unknown });
    expect(records.filter((r) => typeof r.level !== 'string' || typeof r.message !== 'string')).toEqual([]);
    if (output.includes(CAUGHT_UP)) expect(records.some((r) => r.message === CAUGHT_UP)).toBe(true);
  }, WATCHED_MS + 60_000);
});
