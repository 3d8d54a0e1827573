import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_REPLY_RULE_SQL } from '../../cdk/lib/constructs/alert-engine';
import { functionEnv, lambdaFunctions, synthVatMan, type Synthesized } from './synth';

/** Issue 6 infrastructure: the engine's grants, the scheduled sweep, device replies, the command grant. */
let synth: Synthesized;
let template: Template;

const fnId = (template: Template, descriptionPart: string): string => {
  const found = Object.entries(lambdaFunctions(template)).filter(([, fn]) => String(fn.Properties?.Description).includes(descriptionPart));
  expect(found, descriptionPart).toHaveLength(1);
  return (found[0] as [string, unknown])[0];
};

beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
  template = synth.template;
});
afterAll(() => synth?.cleanup());

const policiesOfFunction = (id: string) => {
  const fn = lambdaFunctions(template)[id] as unknown as { Properties: { Role: { 'Fn::GetAtt': [string, string] } } };
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return JSON.stringify(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }));
};

describe('alert engine infrastructure', () => {
  it('the ingest writes alerts and may publish them', () => {
    const ingest = fnId(template, 'telemetry ingest');
    expect(Object.keys(functionEnv(template, ingest))).toEqual(expect.arrayContaining(['ALERTS_TABLE', 'ALERTS_TOPIC_ARN', 'FARMS_TABLE']));
    expect(policiesOfFunction(ingest)).toContain('sns:Publish');
  });

  it('runs the sweep every minute with the tables and the topic', () => {
    const sweep = fnId(template, 'alert sweep');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [sweep, 'Arn'] } })]),
    });
    expect(Object.keys(functionEnv(template, sweep))).toEqual(expect.arrayContaining(['ALERTS_TABLE', 'ALERTS_TOPIC_ARN', 'FARMS_TABLE']));
    expect(policiesOfFunction(sweep)).toContain('sns:Publish');
  });

  it('hands device replies on dts/+/cmd/reply to their function, and only that rule may invoke it', () => {
    const reply = fnId(template, 'device replies');
    template.hasResourceProperties('AWS::IoT::TopicRule', {
      TopicRulePayload: { Sql: DEVICE_REPLY_RULE_SQL, Actions: [{ Lambda: { FunctionArn: { 'Fn::GetAtt': [reply, 'Arn'] } } }] },
    });
    template.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: { 'Fn::GetAtt': [reply, 'Arn'] }, Principal: 'iot.amazonaws.com' });
  });

  it('lets the settings endpoint publish to device settings topics only', () => {
    const setting = fnId(template, 'POST /api/farmer/setting');
    const policies = policiesOfFunction(setting);
    expect(policies).toContain('iot:Publish');
    expect(policies).toContain('topic/dts/*/cmd/settings');
  });

  it('lets a device publish its reply on its own cmd/reply topic', () => {
    const policy = JSON.stringify(template.findResources('AWS::IoT::Policy'));
    expect(policy).toContain('dts/${iot:Connection.Thing.ThingName}/cmd/reply');
  });
});
