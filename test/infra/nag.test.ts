import { Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createVatManApp } from '../../cdk/lib/app';
import { nagViolations, synthVatMan, TEST_RECAPTCHA_SITE_KEY, validationViolations } from './synth';

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

describe('no acknowledged sns:Publish on *', () => {
  it("no function's role acknowledges IAM5 on Resource::* for SNS: alerts (texts too) publish to the users' topics only", () => {
    const synth = synthVatMan();
    try {
      const acknowledged: { path: string; rule: unknown }[] = [];
      const walk = (node: IConstruct) => {
        for (const m of node.node.metadata) if (m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY) acknowledged.push({ path: node.node.path, rule: m.data });
        node.node.children.forEach(walk);
      };
      walk(synth.stack);
      const text = acknowledged.map((a) => `${a.path} ${JSON.stringify(a.rule)}`);
      // Some acknowledgements exist (the check looks at the right metadata) …
      expect(text.some((t) => t.includes('AwsSolutions-IAM5'))).toBe(true);
      // … and none of them is a wildcard on an alert function, nor mentions SNS or SMS.
      expect(text.filter((t) => /(TelemetryIngest|AlertEngine)/.test(t) && t.includes('Resource::*'))).toEqual([]);
      // The one left is Cognito's own SMS role (verification codes), assumable by Cognito alone: no function's.
      expect(text.filter((t) => /sns:Publish|SNS SMS|PhoneNumber/.test(t)).map((t) => t.split(' ')[0])).toEqual(['VatManStack/Auth/UserPool/smsRole']);
    } finally {
      synth.cleanup();
    }
  });
});

describe('deploy validity: every validation plugin, not only cdk-nag', () => {
  it('reports no violation of any plugin on the real app', () => {
    const synth = synthVatMan();
    try {
      expect(validationViolations(synth.assembly)).toEqual([]);
    } finally {
      synth.cleanup();
    }
  });

  it("catches what IAM refuses at deploy time: a typographic apostrophe in a role's description (F3031)", () => {
    // CDK prints the finding as a warning too: keep the test's output to its result.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const quietWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    onTestFinished(() => {
      quiet.mockRestore();
      quietWarn.mockRestore();
    });
    const { app, stack } = createVatManApp({ context: { 'aws:cdk:bundling-stacks': [], recaptchaSiteKey: TEST_RECAPTCHA_SITE_KEY } });
    new Role(stack, 'CurlyRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: 'the user\u2019s role' });
    const assembly = app.synth();
    expect(validationViolations(assembly).some((v) => v.includes('F3031'))).toBe(true);
  });
});
