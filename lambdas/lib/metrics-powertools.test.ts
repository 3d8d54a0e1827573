import { afterEach, describe, expect, it, vi } from 'vitest';
import { countMetric, countSent, METRIC, metrics, metricsPublish, recordAlertLatency } from './metrics';

/** The EMF lines Powertools writes to stdout during `run`. */
const emf = (run: () => void): Record<string, unknown>[] => {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return out.flatMap((c) => c.split('\n')).filter((l) => l.includes('"_aws"')).map((l) => JSON.parse(l) as Record<string, unknown>);
};

describe('Powertools metrics', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('publish inside Lambda, or as POWERTOOLS_METRICS_DISABLED says; never in the local stack or the tests', () => {
    expect(metricsPublish({})).toBe(false);
    expect(metricsPublish({ AWS_LAMBDA_FUNCTION_NAME: 'f' })).toBe(true);
    expect(metricsPublish({ AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_METRICS_DISABLED: 'true' })).toBe(false);
    expect(metricsPublish({ POWERTOOLS_METRICS_DISABLED: 'false' })).toBe(true);
  });

  it('print nothing in the tests, and forget what they counted', () => {
    countSent('sms');
    expect(emf(() => metrics.publishStoredMetrics())).toEqual([]);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });

  it("flush in Lambda as one EMF line of the VatMan namespace with the service dimension: each channel's sends, the latency in ms", () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'vatman-alert-sweep');
    const [line] = emf(() => {
      countSent('sms');
      countSent('sms');
      countSent('email');
      countSent('push');
      countMetric(METRIC.watchmanCasesOpened, 0);
      recordAlertLatency('2026-11-25T10:00:00.000Z', new Date('2026-11-25T10:00:42.500Z'));
      metrics.publishStoredMetrics();
    });
    // Two texts are two values of the metric (EMF sums them).
    expect(line).toMatchObject({ service: 'vat-man', TextsSent: [1, 1], EmailsSent: 1, PushesSent: 1, AlertLatency: 42_500 });
    expect(line).not.toHaveProperty('WatchmanCasesOpened');
    const [directive] = (line?._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] }).CloudWatchMetrics;
    expect(directive?.Namespace).toBe('VatMan');
    expect(directive?.Dimensions).toEqual([['service']]);
    expect(directive?.Metrics).toContainEqual({ Name: 'AlertLatency', Unit: 'Milliseconds' });
    expect(directive?.Metrics).toContainEqual({ Name: 'TextsSent', Unit: 'Count' });
  });

  it('write no line when nothing was counted', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'vatman-api-user');
    expect(emf(() => metrics.publishStoredMetrics())).toEqual([]);
  });
});
