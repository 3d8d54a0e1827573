import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionEnv, lambdaFunctions, synthVatMan, type Synthesized } from './synth';

/** Watchman's infrastructure: the Watchman job, its schedule (hourly, configurable) and its single concurrency. */
let synth: Synthesized;
let template: Template;

beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
  template = synth.template;
});
afterAll(() => synth?.cleanup());

const jobOf = (t: Template) => {
  const found = Object.entries(lambdaFunctions(t)).filter(([, fn]) => String(fn.Properties?.Description).includes('Watchman'));
  expect(found).toHaveLength(1);
  return found[0] as [string, { Properties: Record<string, unknown> }];
};
const ruleOf = (t: Template, id: string) => {
  const rules = Object.values(t.findResources('AWS::Events::Rule')).filter((r) => JSON.stringify(r).includes(id));
  expect(rules).toHaveLength(1);
  return JSON.stringify(rules[0]);
};

describe('Watchman infrastructure', () => {
  it('runs the job hourly, never twice at once, without retries', () => {
    const [id, fn] = jobOf(template);
    expect(ruleOf(template, id)).toContain('rate(1 hour)');
    expect(ruleOf(template, id)).toContain('"MaximumRetryAttempts":0');
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
    expect(Object.keys(functionEnv(template, id))).toEqual(expect.arrayContaining(['FARMS_TABLE', 'READINGS_TABLE']));
  });

  it('takes its rate from -c watchmanRateMinutes', () => {
    const given = synthVatMan({ stage: 'prod', context: { watchmanRateMinutes: '15' } });
    try {
      const [id] = jobOf(given.template);
      expect(ruleOf(given.template, id)).toContain('rate(15 minutes)');
    } finally {
      given.cleanup();
    }
  });
});
