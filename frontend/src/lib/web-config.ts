import { parseWebConfig, type WebConfig } from '../../../shared/web-config';

export const CONFIG_PATH = '/config.json';

/** The runtime configuration could not be loaded; `problems` name each missing or bad value. */
export class WebConfigError extends Error {
  override readonly name = 'WebConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid ${CONFIG_PATH}: ${problems.join('; ')}`);
  }
}

/**
 * Fetches and parses `/config.json` (the CDK web construct writes it next to the build; the
 * local stack's web server answers it). Runtime rather than build-time configuration lets one
 * build run against any stage. Throws a WebConfigError naming every problem.
 */
export const loadWebConfig = async (fetchFn: typeof fetch = fetch): Promise<WebConfig> => {
  let response: Response;
  try {
    response = await fetchFn(CONFIG_PATH, { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch (err) {
    throw new WebConfigError([`${CONFIG_PATH} could not be fetched (${err instanceof Error ? err.message : String(err)})`]);
  }
  if (!response.ok) throw new WebConfigError([`${CONFIG_PATH} answered HTTP ${response.status}`]);

  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    throw new WebConfigError([`${CONFIG_PATH} is not valid JSON`]);
  }

  const parsed = parseWebConfig(body);
  if (!parsed.success) throw new WebConfigError(parsed.problems);
  return parsed.data;
};

/**
 * The config as a query (loaded once, kept): useWebConfig reads it in screens; the 401 routing
 * (app/api-events.tsx) fetches it only when it needs it, so the first page's code needs no useQuery.
 */
export const webConfigQuery = {
  queryKey: ['web-config'],
  queryFn: () => loadWebConfig(),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: false,
} as const;
