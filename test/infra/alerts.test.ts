import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_REPLY_RULE_SQL } from '../../cdk/lib/constructs/alert-engine';
import { ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV } from '../../cdk/lib/constructs/alerts';
import { ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV as LAMBDA_PREFIX_ENV } from '../../lambdas/ports/env-names';
import { functionEnv, lambdaFunctions, synthVatMan, type Synthesized } from './synth';

/** The alert engine's infrastructure: the engine's grants, the scheduled sweep, device replies, the command grant. */
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
    expect(Object.keys(functionEnv(template, ingest))).toEqual(expect.arrayContaining(['ALERTS_TABLE', 'ALERT_EMAIL_TOPIC_ARN_PREFIX', 'FARMS_TABLE']));
    expect(policiesOfFunction(ingest)).toContain('sns:Publish');
  });

  it('runs the sweep every minute with the tables and the topic', () => {
    const sweep = fnId(template, 'alert sweep');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [sweep, 'Arn'] } })]),
    });
    expect(Object.keys(functionEnv(template, sweep))).toEqual(expect.arrayContaining(['ALERTS_TABLE', 'ALERT_EMAIL_TOPIC_ARN_PREFIX', 'FARMS_TABLE']));
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
    expect(policies).not.toContain('cmd/check');
  });

  it("lets the installer endpoint alone publish Check Install's command to unit check topics", () => {
    const installer = policiesOfFunction(fnId(template, 'POST /api/installer'));
    expect(installer).toContain('topic/dts/unit-*/cmd/check');
    const others = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id !== fnId(template, 'POST /api/installer'));
    for (const id of others) expect(policiesOfFunction(id)).not.toContain('cmd/check');
  });

  it('lets a device publish its reply on its own cmd/reply topic', () => {
    const policy = JSON.stringify(template.findResources('AWS::IoT::Policy'));
    expect(policy).toContain('dts/${iot:Connection.Thing.ThingName}/cmd/reply');
  });

  describe('alert email: a topic per user, made at run time', () => {
    /** Every statement of a function's role policies. */
    const statementsOf = (id: string) =>
      Object.values(JSON.parse(policiesOfFunction(id)) as Record<string, { Properties: { PolicyDocument: { Statement: Statement[] } } }>).flatMap(
        (p) => p.Properties.PolicyDocument.Statement,
      );
    interface Statement {
      Action: string | string[];
      Resource: unknown;
    }
    const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
    const resourcesOf = (s: Statement) => JSON.stringify(s.Resource);
    /** The topic name prefix, from the `Fn::Join` of the ARN prefix the function is given. */
    const prefix = (id: string) => {
      const joined = JSON.stringify(functionEnv(template, id)[ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV]);
      const name = /:([A-Za-z0-9-]+-alert-email-)"/.exec(joined)?.[1];
      expect(name, joined).toBeDefined();
      expect(joined).toContain('arn:');
      expect(joined).toContain(':sns:');
      return name as string;
    };

    it('the stack holds no shared alert email topic (its topics are the enquiry topic and the operator alarms); the Lambdas and CDK agree on the variable', () => {
      template.resourceCountIs('AWS::SNS::Topic', 2);
      template.hasResourceProperties('AWS::SNS::Topic', { DisplayName: 'Vat-Man enquiries' });
      template.hasResourceProperties('AWS::SNS::Topic', { DisplayName: 'Vat-Man operator alarms' });
      template.resourceCountIs('AWS::SNS::Subscription', 1);
      expect(ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV).toBe(LAMBDA_PREFIX_ENV);
    });

    it('gives the Cognito pool a post-confirmation trigger that makes the new user’s topic and subscription', () => {
      const pool = Object.values(template.findResources('AWS::Cognito::UserPool'))[0] as { Properties: { LambdaConfig: { PostConfirmation?: { 'Fn::GetAtt': [string, string] } } } };
      const triggerId = pool.Properties.LambdaConfig.PostConfirmation?.['Fn::GetAtt'][0] ?? '';
      expect(triggerId).toBe(fnId(template, 'PostConfirmation'));
      expect(prefix(triggerId)).toMatch(/-alert-email-$/);
      expect(Object.keys(functionEnv(template, triggerId))).toContain('FARMS_TABLE');
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'cognito-idp.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] },
      });
      const sns = statementsOf(triggerId).filter((s) => actionsOf(s).some((a) => a.startsWith('sns:')));
      expect(sns.flatMap(actionsOf).sort()).toEqual(['sns:CreateTopic', 'sns:GetSubscriptionAttributes', 'sns:SetSubscriptionAttributes', 'sns:Subscribe', 'sns:Unsubscribe']);
      for (const s of sns) expect(resourcesOf(s)).toContain(`:${prefix(triggerId)}*`);
    });

    it('the notifier (ingest and sweep) may make routes and publish to the users’ topics only: texts too, no sns:Publish on *', () => {
      for (const id of [fnId(template, 'telemetry ingest'), fnId(template, 'alert sweep')]) {
        const sns = statementsOf(id).filter((s) => actionsOf(s).some((a) => a.startsWith('sns:')));
        const onTopics = sns.filter((s) => resourcesOf(s).includes(`:${prefix(id)}*`)).flatMap(actionsOf);
        expect(onTopics.sort()).toEqual(['sns:CreateTopic', 'sns:GetSubscriptionAttributes', 'sns:Publish', 'sns:SetSubscriptionAttributes', 'sns:Subscribe', 'sns:Unsubscribe']);
        // Every SNS statement is confined to the users' topics: none on '*'.
        for (const s of sns) expect(resourcesOf(s)).toContain(`:${prefix(id)}*`);
        expect(sns.filter((s) => s.Resource === '*')).toEqual([]);
      }
    });

    it('the sweep runs one at a time (reserved concurrency 1)', () => {
      template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('alert sweep'), ReservedConcurrentExecutions: 1 });
    });
  });
});
