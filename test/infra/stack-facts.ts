import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, expect } from 'vitest';
import { onlyResourceId, synthVatMan, type Synthesized } from './synth';

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

interface DistributionConfig {
  Origins: { Id: string; DomainName: unknown; CustomOriginConfig?: { OriginProtocolPolicy: string }; OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[];
  DefaultCacheBehavior: Record<string, unknown>;
  CacheBehaviors?: { PathPattern: string; TargetOriginId: string; AllowedMethods: string[]; CachePolicyId: { Ref: string }; ViewerProtocolPolicy: string; Compress?: boolean }[];
  CustomErrorResponses?: unknown[];
}

/**
 * What the main stack's tests look up in its template again and again: the user pool, its client,
 * the HTTP API, the web distribution and the way from a route to its function, each found by
 * type or reference (never by a hard-coded logical id).
 */
export const stackFacts = (template: Template) => {
  const resources = template.toJSON().Resources as Resources;
  const userPoolId = onlyResourceId(template, 'AWS::Cognito::UserPool');
  const clientId = onlyResourceId(template, 'AWS::Cognito::UserPoolClient');
  // The HTTP API; the live-updates WebSocket API is the other ApiGatewayV2::Api.
  const httpApis = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'HTTP' } }));
  if (httpApis.length !== 1) throw new Error(`Expected one HTTP API, found ${httpApis.length}`);
  const apiId = httpApis[0] as string;

  const issuerParts = (): unknown[] => ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.amazonaws.com/', { Ref: userPoolId }];
  const issuer = () => ({ 'Fn::Join': ['', issuerParts()] });

  /** The stack's only distribution: the web app's, which also carries the API under /api/*. */
  const distributionId = (): string => onlyResourceId(template, 'AWS::CloudFront::Distribution');
  const distributionConfig = (): DistributionConfig => (resources[distributionId()]?.Properties as { DistributionConfig: DistributionConfig }).DistributionConfig;

  /** The web distribution's `/api/*` behaviour and the origin it sends to. */
  const apiBehaviour = () => {
    const config = distributionConfig();
    const behaviour = config.CacheBehaviors?.find((b) => b.PathPattern === '/api/*');
    expect(behaviour).toBeDefined();
    const origin = config.Origins.find((o) => o.Id === behaviour?.TargetOriginId);
    expect(origin).toBeDefined();
    return { behaviour: behaviour as NonNullable<typeof behaviour>, origin: origin as NonNullable<typeof origin> };
  };

  /** Route → integration → Lambda, following the references in the template. */
  const routeFunctionId = (routeKey: string): string => {
    const routes = template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } });
    const route = Object.values(routes)[0] as { Properties: { Target: { 'Fn::Join': [string, [string, { Ref: string }]] } } };
    const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref;
    const uri = resources[integrationId]?.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] };
    return uri['Fn::GetAtt'][0];
  };

  /** The deploy-time dynamic reference to the origin secret: CloudFront's header value and ORIGIN_VERIFY alike. */
  const originSecretReference = () => ({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: onlyResourceId(template, 'AWS::SecretsManager::Secret') }, ':SecretString:::}}']] });

  return { resources, userPoolId, clientId, apiId, issuerParts, issuer, distributionId, distributionConfig, apiBehaviour, routeFunctionId, originSecretReference };
};
export type StackFacts = ReturnType<typeof stackFacts>;

/**
 * The prod stack synthesized once for a test file (its beforeAll) and removed after (its afterAll),
 * with its facts. Read `synth`, `template` and `facts` inside hooks and tests only.
 */
export const mainStackForFile = () => {
  let state: { synth: Synthesized; facts: StackFacts } | undefined;
  beforeAll(() => {
    const synth = synthVatMan({ stage: 'prod' });
    state = { synth, facts: stackFacts(synth.template) };
  });
  afterAll(() => state?.synth.cleanup());
  const started = () => {
    if (!state) throw new Error('the stack is not synthesized yet (read it inside a hook or test)');
    return state;
  };
  return {
    get synth() {
      return started().synth;
    },
    get template() {
      return started().synth.template;
    },
    get facts() {
      return started().facts;
    },
  };
};
