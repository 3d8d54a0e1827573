/**
 * The local stack's configuration, read from the environment once: its TCP ports, folders and
 * switches. The steps take this object; none of them reads the environment for itself.
 */
import { gatewayLimitsFromEnv } from '../stand-ins/api-gateway';
import { LIVE_MONITORING_SITE_PATH } from '../stand-ins/web-hosting';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tcpPortOf, TCP_PORTS, type TcpPortName } from '../tcp-ports';

/** The repository's root (local/start/ is two folders down). */
export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const TABLE_PREFIX = 'vatman';
/** The Cognito triggers' function names, as the Lambda Invoke stand-in knows them. */
export const TRIGGER_FUNCTIONS = {
  CustomMessage: 'vatman-custom-message',
  PostConfirmation: 'vatman-post-confirmation',
  PreTokenGeneration: 'vatman-pre-token-generation',
  PreSignUp: 'vatman-pre-sign-up',
} as const;
/** The device policy's name locally (in AWS the stack's DevicePolicy). */
export const LOCAL_DEVICE_POLICY = 'vatman-local-device-policy';
/** The dairy company's gateway token as it is first issued, and the SSM parameter holding it. */
export const DAIRY_TOKEN = 'local-dairy-gateway-token';
export const DAIRY_TOKEN_PARAMETER = '/vatman/dairy-gateway-token';

export interface LocalStackOptions {
  /** Where state is kept; default .data/ at the repository root. */
  readonly dataDir?: string;
  /** The web build to serve; default frontend/dist. */
  readonly distDir?: string;
  /**
   * Run the device simulator for the demo farms (npm start does; tests drive devices themselves).
   * @default false
   */
  readonly simulator?: boolean;
  /**
   * Run the dairy-company sync every minute (the exporter: events out, dockets in). Tests that
   * drive the exporter with their own clock turn it off.
   * @default true
   */
  readonly dairySync?: boolean;
  /**
   * Run Watchman on a timer like its hourly EventBridge schedule
   * (`WATCHMAN_EVERY_MINUTES` changes the rate locally). Tests that run it themselves turn it off.
   * @default true
   */
  readonly watchman?: boolean;
  /**
   * How many hours of history the simulator makes on a first start (a test takes fewer).
   * @default 48
   */
  readonly simulatorBackfillHours?: number;
}

export interface LocalConfig {
  /** Tells this start's function modules from another stack's in the same process (tests start several). */
  readonly stackId: number;
  readonly dataDir: string;
  readonly distDir: string;
  readonly ports: Readonly<Record<TcpPortName, number>>;
  /** The web app's origin; the API is on it too (`/api/*`). */
  readonly webUrl: string;
  readonly simulator: boolean;
  readonly dairySync: boolean;
  readonly watchman: boolean;
  readonly watchmanEveryMs: number;
  /** Print Cognito's codes on the console (a person at `npm start`); off when the log goes to a file. */
  readonly printCodes: boolean;
  /** Parse every API answer with its contract's answer schema (under the tests only). */
  readonly checkAnswers: boolean;
  /**
   * The sibling live-monitoring site (farmer §1): LIVE_MONITORING_URL when set, none when set empty
   * (the app then shows no link), else the web server's stand-in page.
   */
  readonly liveMonitoringUrl: string | undefined;
  /** How many hours of history the simulator makes on a first start (a test takes fewer). */
  readonly simulatorBackfillHours: number;
  /** The API gateway's per-IP limit and stage throttle, lifted for a load run only (API_RATE_PER_IP, API_THROTTLE_RATE). */
  readonly gatewayLimits: ReturnType<typeof gatewayLimitsFromEnv>;
}

let stacksStarted = 0;

/** The ingest's dead-letter queue, which the stream's on-failure destination fills and the fleet overview counts. */
export const INGEST_DEAD_LETTER_QUEUE = 'vatman-ingest-dead-letters';

const liveMonitoringSite = (web: string, env: NodeJS.ProcessEnv): string | undefined => {
  const given = env.LIVE_MONITORING_URL;
  if (given === undefined) return `${web}${LIVE_MONITORING_SITE_PATH}`;
  if (given.trim() === '') return undefined;
  if (!URL.canParse(given.trim())) throw new Error(`LIVE_MONITORING_URL must be a URL (or empty for no link), not ${given}`);
  return given.trim();
};

export const readLocalConfig = (options: LocalStackOptions = {}, env: NodeJS.ProcessEnv = process.env): LocalConfig => {
  const ports = Object.fromEntries((Object.keys(TCP_PORTS) as TcpPortName[]).map((n) => [n, tcpPortOf(n, env)])) as Record<TcpPortName, number>;
  return {
    stackId: ++stacksStarted,
    dataDir: resolve(options.dataDir ?? join(ROOT, '.data')),
    distDir: options.distDir ?? join(ROOT, 'frontend', 'dist'),
    ports,
    webUrl: `http://localhost:${ports.web}`,
    simulator: options.simulator ?? false,
    dairySync: options.dairySync ?? true,
    watchman: options.watchman ?? true,
    watchmanEveryMs: Number(env.WATCHMAN_EVERY_MINUTES ?? 60) * 60_000,
    printCodes: !env.VATMAN_LOG_FILE,
    checkAnswers: Boolean(env.VITEST),
    gatewayLimits: gatewayLimitsFromEnv(env),
    liveMonitoringUrl: liveMonitoringSite(`http://localhost:${ports.web}`, env),
    simulatorBackfillHours: options.simulatorBackfillHours ?? 48,
  };
};

/**
 * A function's module for this start: one module instance per stack start, like a fresh Lambda
 * container, so its cold start reads this stack's configuration. `path` is from the repository root.
 */
export const importFunction = async <T>(config: LocalConfig, path: string): Promise<T> =>
  (await import(new URL(`../../${path}?stack=${config.stackId}`, import.meta.url).href)) as T;
