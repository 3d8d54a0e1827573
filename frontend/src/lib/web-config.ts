import type * as z from 'zod';
import { webConfigSchema, type WebConfig } from '../../../shared/config';

export const CONFIG_PATH = '/config.json';

/** The runtime configuration could not be loaded; `problems` name each missing or bad value. */
export class WebConfigError extends Error {
  override readonly name = 'WebConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid ${CONFIG_PATH}: ${problems.join('; ')}`);
  }
}

const describeIssue = (issue: z.core.$ZodIssue, input: unknown): string => {
  const key = issue.path.map(String).join('.') || '(root)';
  const value = issue.path.reduce<unknown>(
    (node, segment) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[segment] : undefined),
    input,
  );
  if (issue.path.length > 0 && value === undefined) return `${key} is missing`;
  return `${key}: ${issue.message}`;
};

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

  const parsed = webConfigSchema.safeParse(body);
  if (!parsed.success) throw new WebConfigError(parsed.error.issues.map((issue) => describeIssue(issue, body)));
  return parsed.data;
};
