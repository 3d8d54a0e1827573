/**
 * `npm run simulate`: the device simulator against the running local stack (`npm start`).
 *
 *   npm run simulate -- --farms 5 --speed 60 [--hours 48] [--seed 1] [--random-faults] [--package Auto]
 *       provisions synthetic farms SIM0001… into the stack's DynamoDB, then publishes their vats'
 *       readings over MQTT, the last H hours at X times real time, then live (1×).
 *   npm run simulate -- --fault chiller_off --device vm-ocd40721-1 --minutes 120
 *       starts a fault on a device of the stack's own simulator (its control server).
 */
import '../quiet-warnings';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { PACKAGES, type Package } from '../../shared/entities/farm';
import { FAULT_KINDS, MAX_FAULT_MINUTES, type FaultKind } from './faults';
import { simFarmsFrom, startSimulator } from './simulator';
import { syntheticFarms } from './synthetic';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export const USAGE = `Usage:
  npm run simulate -- --farms N [--speed X] [--hours H] [--seed S] [--random-faults] [--package P]
      Simulate N synthetic farms (SIM0001…, 1-4 vats each) against the running local stack:
      H hours back (default 48) at X simulated minutes per real minute (default 60), then live;
      --speed 1 catches up as fast as the rate limit (400 messages/s) allows.
      --package Lite, Pro or Auto gives every farm that package (default: the three in turn);
      Pro and Auto farms have the date-range picker, so a month can be asked of them.
  npm run simulate -- --fault KIND --device NAME --minutes M
      Start a fault on a device of the running stack's simulator (a vat device, e.g. vm-31245-1,
      or a unit, e.g. unit-352656100000029: the fault is then on each of its vats).
      KIND: ${FAULT_KINDS.join(', ')}.
Start the stack first with: npm start`;

export class CliError extends Error {}
/** A bad command line: the usage is printed with it. */
export class UsageError extends CliError {}

export type CliCommand =
  | { readonly mode: 'help' }
  | {
      readonly mode: 'simulate';
      readonly farms: number;
      readonly speed: number;
      readonly hours: number;
      readonly seed: number;
      readonly randomFaults: boolean;
      /** Every farm's package; without it the farms take the three in turn. */
      readonly package?: Package;
    }
  | { readonly mode: 'fault'; readonly kind: FaultKind; readonly device: string; readonly minutes: number };

const numberFlag = (name: string, raw: string | undefined, fallback: number, check: (n: number) => boolean, rule: string): number => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} ${raw}: must be ${rule}.`);
  return n;
};

export const parseCli = (argv: readonly string[]): CliCommand => {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        farms: { type: 'string' },
        speed: { type: 'string' },
        hours: { type: 'string' },
        seed: { type: 'string' },
        'random-faults': { type: 'boolean' },
        package: { type: 'string' },
        fault: { type: 'string' },
        device: { type: 'string' },
        minutes: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help) return { mode: 'help' };
  if (values.fault !== undefined) {
    const simulateOnly = (['farms', 'speed', 'hours', 'seed', 'random-faults', 'package'] as const).filter((k) => values[k] !== undefined);
    if (simulateOnly.length > 0) throw new UsageError(`--fault cannot be combined with ${simulateOnly.map((k) => `--${k}`).join(', ')}.`);
    if (!(FAULT_KINDS as readonly string[]).includes(values.fault)) throw new UsageError(`--fault ${values.fault}: must be one of ${FAULT_KINDS.join(', ')}.`);
    if (!values.device) throw new UsageError('--fault needs --device <device name>, e.g. --device vm-ocd40721-1.');
    if (values.minutes === undefined) throw new UsageError('--fault needs --minutes <simulated minutes>.');
    const minutes = numberFlag('minutes', values.minutes, 0, (n) => Number.isInteger(n) && n >= 1 && n <= MAX_FAULT_MINUTES, `a whole number from 1 to ${MAX_FAULT_MINUTES}`);
    return { mode: 'fault', kind: values.fault as FaultKind, device: values.device, minutes };
  }
  if (values.device !== undefined || values.minutes !== undefined) throw new UsageError('--device and --minutes go with --fault.');
  if (values.farms === undefined) throw new UsageError('--farms N is required (or --fault to start a fault).');
  const pkg = values.package === undefined ? undefined : PACKAGES.find((p) => p === `Vat-Man ${values.package}`);
  if (values.package !== undefined && !pkg) throw new UsageError(`--package ${values.package}: must be Lite, Pro or Auto.`);
  return {
    ...(pkg ? { package: pkg } : {}),
    mode: 'simulate',
    farms: numberFlag('farms', values.farms, 1, (n) => Number.isInteger(n) && n >= 1 && n <= 500, 'a whole number from 1 to 500'),
    speed: numberFlag('speed', values.speed, 60, (n) => n >= 1 && n <= 100_000, 'a number from 1 to 100000 (simulated minutes per real minute)'),
    hours: numberFlag('hours', values.hours, 48, (n) => n > 0 && n <= 24 * 30, 'a number of hours above 0, at most 720'),
    seed: numberFlag('seed', values.seed, 1, (n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32, 'a whole number from 0 to 4294967295'),
    randomFaults: values['random-faults'] ?? false,
  };
};

const localFactsSchema = z.object({
  mqtt: z.string().min(1),
  dynamodb: z.object({ endpoint: z.string().min(1), farmsTable: z.string().min(1) }).optional(),
  simulator: z.object({ control: z.string().min(1) }).optional(),
});
export type SimulatorFacts = z.infer<typeof localFactsSchema>;

export const readLocalFacts = (file: string): SimulatorFacts => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`The local stack is not running: ${file} not found. Start it with: npm start`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not valid JSON. Restart the stack with: npm start`);
  }
  const parsed = localFactsSchema.safeParse(json);
  if (!parsed.success) throw new CliError(`${file} lacks ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}. Restart the stack with: npm start`);
  return parsed.data;
};

const notRunning = (what: string, url: string) =>
  new CliError(`The local stack is not running: nothing answers at ${url} (${what}). Start it with: npm start`);

const isConnectionRefused = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string }; name?: string; message?: string };
  return e.code === 'ECONNREFUSED' || e.cause?.code === 'ECONNREFUSED' || /ECONNREFUSED|connect ETIMEDOUT|fetch failed/.test(e.message ?? '');
};

const postFault = async (control: string, cmd: Extract<CliCommand, { mode: 'fault' }>) => {
  const url = `${control.replace(/\/$/, '')}/faults`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device: cmd.device, kind: cmd.kind, minutes: cmd.minutes }),
      signal: AbortSignal.timeout(5_000),
    });
  } catch (err) {
    if (isConnectionRefused(err)) throw notRunning('simulator control server', url);
    throw err;
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string; from?: string; until?: string };
  if (!res.ok) throw new CliError(`The simulator refused the fault: ${body.error ?? `HTTP ${res.status}`}`);
  console.log(`  ${cmd.kind} on ${cmd.device} from ${body.from} to ${body.until} (simulated time).`);
};

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** Runs until Ctrl-C (SIGINT) or SIGTERM. */
const untilSignal = (_sim: Simulator) =>
  new Promise<void>((done) => {
    const shutdown = (signal: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      console.log(`\n  ${signal}: stopping the simulator…`);
      done();
    };
    const onInt = () => shutdown('SIGINT');
    const onTerm = () => shutdown('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });

const simulate = async (facts: SimulatorFacts, cmd: Extract<CliCommand, { mode: 'simulate' }>, waitForStop: (sim: Simulator) => Promise<void>) => {
  if (!facts.dynamodb) throw new CliError('.data/local.json has no dynamodb entry: restart the stack with npm start.');
  // Local only: never reach for real AWS credentials or the instance metadata service.
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1' });
  delete process.env.AWS_PROFILE;
  delete process.env.AWS_SESSION_TOKEN;
  const repo = dynamoFarmRepository(
    createDocumentClient({ DYNAMODB_ENDPOINT: facts.dynamodb.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' }),
    facts.dynamodb.farmsTable,
  );
  const { farms, devices } = syntheticFarms(cmd.farms, cmd.seed, new Date(), cmd.package);
  try {
    for (const farm of farms) await repo.putFarm(farm);
    for (const device of devices) await repo.putDevice(device);
  } catch (err) {
    if (isConnectionRefused(err)) throw notRunning('DynamoDB', facts.dynamodb.endpoint);
    throw err;
  }
  console.log(`\n  Provisioned ${farms.length} farm(s), ${devices.length} vat(s) in ${facts.dynamodb.farmsTable}:`);
  for (const f of farms) {
    const vats = devices.filter((d) => d.farm_id === f._id).map((d) => `${d.name} (${d.vat_size} L)`);
    console.log(`    ${f.fonterra_id}  ${f.package.padEnd(13)} ${vats.join(', ')}`);
  }

  let sim: Simulator;
  try {
    sim = await startSimulator({
      mqttUrl: facts.mqtt,
      farms: simFarmsFrom(farms, devices),
      backfillHours: cmd.hours,
      speed: cmd.speed,
      seed: cmd.seed,
      randomFaults: cmd.randomFaults,
      controlPort: 0,
      log: (line) => console.log(`  ${line}`),
    });
  } catch (err) {
    if (isConnectionRefused(err)) throw notRunning('MQTT broker', facts.mqtt);
    throw err;
  }
  const realMinutes = (cmd.hours * 60) / cmd.speed;
  console.log(
    `\n  Publishing to ${facts.mqtt}: the last ${cmd.hours} h at ${cmd.speed}× (about ${realMinutes < 1 ? `${Math.ceil(realMinutes * 60)} s` : `${Math.ceil(realMinutes)} min`}), then live, one reading a minute per vat.`,
  );
  console.log(`  Faults: curl -X POST ${sim.controlUrl}/faults -d '{"device":"${devices[0]?.name}","kind":"chiller_off","minutes":120}'`);
  console.log('  Stop: Ctrl-C\n');
  void sim.caughtUp.then(() => console.log('  Caught up with the present: now live.'));

  try {
    await waitForStop(sim);
  } finally {
    await sim.stop();
  }
};

export interface MainOptions {
  /** Where local.json is; default .data/ at the repository root. */
  readonly dataDir?: string;
  /** Resolves when the simulation should stop; default Ctrl-C or SIGTERM. */
  readonly waitForStop?: (sim: Simulator) => Promise<void>;
}

export const main = async (argv: readonly string[], options: MainOptions = {}): Promise<number> => {
  const dataDir = options.dataDir ?? join(ROOT, '.data');
  try {
    const cmd = parseCli(argv);
    if (cmd.mode === 'help') {
      console.log(USAGE);
      return 0;
    }
    const facts = readLocalFacts(join(dataDir, 'local.json'));
    if (cmd.mode === 'fault') {
      if (!facts.simulator) throw new CliError("The running stack has no simulator control server (no 'simulator.control' in .data/local.json).");
      await postFault(facts.simulator.control, cmd);
    } else {
      await simulate(facts, cmd, options.waitForStop ?? untilSignal);
    }
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`\n  simulate: ${err.message}\n${err instanceof UsageError ? `\n${USAGE}\n` : ''}`);
      return 2;
    }
    console.error('\n  simulate failed:', err instanceof Error ? err.message : err, '\n');
    return 1;
  }
};

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
