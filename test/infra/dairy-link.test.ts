import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionEnv, lambdaFunctions, synthVatMan, type Synthesized } from './synth';

/** The dairy link's infrastructure: the dairy-company sync, its schedule, its gateway URL and its token's one grant. */
let synth: Synthesized;
let template: Template;

beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
  template = synth.template;
});
afterAll(() => synth?.cleanup());

const syncId = () => {
  const found = Object.entries(lambdaFunctions(template)).filter(([, fn]) => String(fn.Properties?.Description).includes('dairy-company link'));
  expect(found).toHaveLength(1);
  return (found[0] as [string, unknown])[0];
};

describe('dairy-company link infrastructure', () => {
  it('runs the sync every minute', () => {
    const id = syncId();
    const rules = Object.values(template.findResources('AWS::Events::Rule')).filter((r) => JSON.stringify(r).includes(id));
    expect(rules).toHaveLength(1);
    expect(JSON.stringify(rules[0])).toContain('rate(1 minute)');
  });

  it('names the gateway and the SSM parameter of its token, never the token itself', () => {
    const env = functionEnv(template, syncId());
    expect(env.DAIRY_GATEWAY_TOKEN_PARAMETER).toBe('/vatman/dairy-gateway-token');
    expect(env.DAIRY_GATEWAY_TOKEN).toBeUndefined();
    // No -c dairyGatewayUrl: the URL is the SSM parameter's value at deploy time.
    expect(JSON.stringify(env.DAIRY_GATEWAY_URL)).toContain('Ref');
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['FARMS_TABLE', 'READINGS_TABLE', 'ALERTS_TABLE']));
  });

  it('may read only its own token parameter', () => {
    const fn = lambdaFunctions(template)[syncId()] as unknown as { Properties: { Role: { 'Fn::GetAtt': [string, string] } } };
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: fn.Properties.Role['Fn::GetAtt'][0] }] } }));
    expect(policies).toContain('ssm:GetParameter');
    expect(policies).toContain(':parameter/vatman/dairy-gateway-token');
    expect(policies).not.toContain('recaptcha');
  });

  it('takes the gateway URL from -c dairyGatewayUrl when given', () => {
    const given = synthVatMan({ stage: 'prod', context: { dairyGatewayUrl: 'https://gateway.dairy.example' } });
    try {
      const [id] = Object.entries(lambdaFunctions(given.template)).find(([, fn]) => String(fn.Properties?.Description).includes('dairy-company link')) ?? [];
      expect(functionEnv(given.template, id ?? '').DAIRY_GATEWAY_URL).toBe('https://gateway.dairy.example');
    } finally {
      given.cleanup();
    }
  });
});
