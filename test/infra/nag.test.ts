import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { createVatManApp } from '../../cdk/lib/app';
import { nagViolations, synthVatMan, TEST_RECAPTCHA_SITE_KEY } from './synth';

describe('cdk-nag AwsSolutions checks', () => {
  it('fail the synth on an unacknowledged finding (the plugin is active in the app)', () => {
    const { app, stack } = createVatManApp({ context: { 'aws:cdk:bundling-stacks': [], recaptchaSiteKey: TEST_RECAPTCHA_SITE_KEY } });
    // A bucket without server access logs, TLS enforcement or public access block.
    new Bucket(stack, 'UncheckedBucket');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1[\s\S]*UncheckedBucket|UncheckedBucket[\s\S]*AwsSolutions-S1/);
  });

  it('pass when the account and region are known (literal ARNs in the findings)', () => {
    const synth = synthVatMan({ stage: 'prod', env: { account: '123456789012', region: 'ap-southeast-2' } });
    try {
      expect(nagViolations(synth.assembly)).toEqual([]);
      expect(synth.stack.region).toBe('ap-southeast-2');
    } finally {
      synth.cleanup();
    }
  });
});
