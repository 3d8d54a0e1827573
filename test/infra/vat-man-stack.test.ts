import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LOAD_RATE, API_RATE_PER_IP, API_THROTTLE } from '../../shared/api/throttle';
import { tokenBucket } from '../../local/stand-ins/api-gateway';
import { createVatManApp } from '../../cdk/lib/app';
import { EDGE_WEB_ACL_PARAMETER } from '../../cdk/lib/vat-man-stack';
import { SPA_FALLBACK_FUNCTION, spaFallbackUri } from '../../cdk/lib/spa-fallback';
import { ENDPOINTS } from '../../shared/api/endpoints';
import { ACTIONS_BY_ENDPOINT } from '../../lambdas/api/actions-by-endpoint';
import { portsOf } from '../../lambdas/lib/dispatch';
import { PORT_GRANTS } from '../../cdk/lib/port-grants';
import { DEFAULT_CONTACTS, parseWebConfig } from '../../shared/config';
import { TABLES } from '../../shared/data/tables';
import { OPERATOR_GROUPS } from '../../shared/roles';
import { ORIGIN_HEADER } from '../../lambdas/ports/function-settings';
import {
  endpointFunctionId,
  functionEnv,
  lambdaFunctions,
  nagViolations,
  onlyResourceId,
  synthVatMan,
  TEST_RECAPTCHA_SITE_KEY,
  type Synthesized,
} from './synth';

let synth: Synthesized;
let template: Template;
let userPoolId: string;
let clientId: string;
let apiId: string;
let resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;

beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
  template = synth.template;
  userPoolId = onlyResourceId(template, 'AWS::Cognito::UserPool');
  clientId = onlyResourceId(template, 'AWS::Cognito::UserPoolClient');
  // The HTTP API; the live-updates WebSocket API is the other ApiGatewayV2::Api.
  const httpApis = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'HTTP' } }));
  if (httpApis.length !== 1) throw new Error(`Expected one HTTP API, found ${httpApis.length}`);
  apiId = httpApis[0] as string;
  resources = template.toJSON().Resources as typeof resources;
});
afterAll(() => synth.cleanup());

const issuerParts = (): unknown[] => ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.amazonaws.com/', { Ref: userPoolId }];
const issuer = () => ({ 'Fn::Join': ['', issuerParts()] });

/** The stack's only distribution: the web app's, which also carries the API under /api/*. */
const distributionId = (): string => onlyResourceId(template, 'AWS::CloudFront::Distribution');

interface DistributionConfig {
  Origins: { Id: string; DomainName: unknown; CustomOriginConfig?: { OriginProtocolPolicy: string }; OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[];
  DefaultCacheBehavior: Record<string, unknown>;
  CacheBehaviors?: { PathPattern: string; TargetOriginId: string; AllowedMethods: string[]; CachePolicyId: { Ref: string }; ViewerProtocolPolicy: string; Compress?: boolean }[];
  CustomErrorResponses?: unknown[];
}
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

describe('live updates', () => {
  it("is reached through the web distribution's /live (its WAF, the site's own origin): the handshake's headers and token forwarded, nothing cached, and $connect checks the origin secret's header", () => {
    const config = distributionConfig();
    const behaviour = config.CacheBehaviors?.find((b) => b.PathPattern === '/live');
    expect(behaviour).toBeDefined();
    const origin = config.Origins.find((o) => o.Id === behaviour?.TargetOriginId);
    const ws = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }))[0] as string;
    expect(JSON.stringify(origin?.DomainName)).toContain(ws);
    expect(origin?.CustomOriginConfig?.OriginProtocolPolicy).toBe('https-only');
    expect(behaviour?.ViewerProtocolPolicy).toBe('https-only');
    // AWS's managed policies: CachingDisabled, and AllViewerExceptHostHeader (Sec-WebSocket-* and the query string go on).
    expect(behaviour?.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect((behaviour as unknown as { OriginRequestPolicyId: string }).OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    const secretId = onlyResourceId(template, 'AWS::SecretsManager::Secret');
    const reference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
    expect(origin?.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_HEADER, HeaderValue: reference }]);
    const live = Object.keys(template.findResources('AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('^Vat-Man live updates WebSocket') } }));
    expect(live).toHaveLength(1);
    const fnId = live[0] as string;
    expect(functionEnv(template, fnId).ORIGIN_VERIFY).toEqual(reference);
    expect((resources[fnId] as { DependsOn?: string[] }).DependsOn).toContain(distributionId());
  });

  it('has a WebSocket API routing on the message action, with $connect, $disconnect, $default and subscribe, throttled and logged', () => {
    const ws = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }));
    expect(ws).toHaveLength(1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: { Ref: ws[0] } } })).map((r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey);
    expect(keys.sort()).toEqual(['$connect', '$default', '$disconnect', 'subscribe']);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: ws[0] },
      StageName: 'live',
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: Match.anyValue() }),
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] }, Format: Match.stringLikeRegexp('connectionId') },
    });
  });
});

describe('API routes', () => {
  it('has exactly one POST route per endpoint of shared/api/endpoints.ts', () => {
    expect(Object.keys(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: { Ref: apiId } } }))).toHaveLength(ENDPOINTS.length);
    for (const endpoint of ENDPOINTS) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        ApiId: { Ref: apiId },
        RouteKey: `POST ${endpoint.path}`,
      });
    }
  });

  it('sends each route to its own Lambda built from lambdas/api/<handler>.ts', () => {
    const targets = ENDPOINTS.map((e) => routeFunctionId(`POST ${e.path}`));
    expect(new Set(targets).size).toBe(ENDPOINTS.length);
    ENDPOINTS.forEach((e, i) => expect(targets[i]).toBe(endpointFunctionId(template, e.path)));
  });

  it('guards every jwt route with the Cognito JWT authorizer and leaves /api/user public', () => {
    const authorizerId = onlyResourceId(template, 'AWS::ApiGatewayV2::Authorizer');
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Audience: [{ Ref: clientId }], Issuer: issuer() },
    });
    for (const endpoint of ENDPOINTS) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: `POST ${endpoint.path}`,
        ...(endpoint.auth === 'jwt'
          ? { AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } }
          : { AuthorizationType: 'NONE', AuthorizerId: Match.absent() }),
      });
    }
    expect(ENDPOINTS.filter((e) => e.auth === 'public').map((e) => e.path)).toEqual(['/api/user']);
  });

  it('allows no cross-origin calls: the web app calls the API on its own origin (/api/*), so no CORS and no preflight', () => {
    const apis = Object.values(template.findResources('AWS::ApiGatewayV2::Api')) as { Properties: { ProtocolType: string; CorsConfiguration?: unknown } }[];
    const http = apis.filter((a) => a.Properties.ProtocolType === 'HTTP');
    expect(http).toHaveLength(1);
    expect(http[0]?.Properties.CorsConfiguration).toBeUndefined();
  });

  it('throttles the default stage and writes JSON access logs to a log group', () => {
    const stages = template.findResources('AWS::ApiGatewayV2::Stage', { Properties: { ApiId: { Ref: apiId } } });
    expect(Object.keys(stages)).toHaveLength(1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: API_THROTTLE.rateLimit,
        ThrottlingBurstLimit: API_THROTTLE.burstLimit,
      },
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] },
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
    });
    const stage = Object.values(stages)[0] as { Properties: { AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [string] } } } };
    expect(resources[stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0]]?.Type).toBe('AWS::Logs::LogGroup');
  });

  it("lets the load run's reads through the stage throttle: 200 a second for 5 minutes, in clumps of 40 (autocannon's connections), none refused", () => {
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage', { Properties: { ApiId: { Ref: apiId } } }))[0] as {
      Properties: { DefaultRouteSettings: { ThrottlingRateLimit: number; ThrottlingBurstLimit: number } };
    };
    const { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit } = stage.Properties.DefaultRouteSettings;
    expect(API_LOAD_RATE).toBe(200);
    // API Gateway's token bucket with the deployed values, driven by a fake clock.
    let t = 0;
    const allow = tokenBucket({ rateLimit, burstLimit }, () => t);
    const clump = 40;
    let refused = 0;
    for (let sent = 0; sent < API_LOAD_RATE * 300; sent += clump) {
      t = (sent / API_LOAD_RATE) * 1000;
      for (let k = 0; k < clump; k += 1) if (!allow()) refused += 1;
    }
    expect(refused).toBe(0);
    // The stage still stops a runaway client: twice the load rate, sustained, is refused in part.
    t = 0;
    const flood = tokenBucket({ rateLimit, burstLimit }, () => t);
    let passed = 0;
    for (let k = 0; k < API_LOAD_RATE * 2 * 60; k += 1) {
      t = (k / (API_LOAD_RATE * 2)) * 1000;
      if (flood()) passed += 1;
    }
    expect(passed).toBeLessThan(API_LOAD_RATE * 2 * 60);
  });
});

describe('API Lambdas', () => {
  it('run on nodejs24.x, arm64, handler export `handler`, with source maps and their own log group', () => {
    for (const endpoint of ENDPOINTS) {
      const id = endpointFunctionId(template, endpoint.path);
      const fn = lambdaFunctions(template)[id]?.Properties ?? {};
      expect(fn).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
      });
      expect(functionEnv(template, id).NODE_OPTIONS).toBe('--enable-source-maps');
      const logGroupId = (fn.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(resources[logGroupId]?.Type).toBe('AWS::Logs::LogGroup');
      expect(resources[logGroupId]?.Properties.RetentionInDays).toEqual(expect.any(Number));
    }
  });

  it('receive the pool, client, issuer and JWKS, and the names of exactly the tables their actions\' ports use', () => {
    for (const endpoint of ENDPOINTS) {
      const env = functionEnv(template, endpointFunctionId(template, endpoint.path));
      expect(env).toMatchObject({
        USER_POOL_ID: { Ref: userPoolId },
        USER_POOL_CLIENT_ID: { Ref: clientId },
        JWT_ISSUER: issuer(),
        JWKS_URI: {
          'Fn::Join': ['', [...issuerParts(), '/.well-known/jwks.json']],
        },
      });
      // Only the profile (the caller's own alert subscription: status and Resend) and sign-up (the
      // new user's route, which the post-confirmation trigger made before) name the alert topics.
      const routes = portsOf(ACTIONS_BY_ENDPOINT[endpoint.path]).some((p) => p === 'alertRoutes' || p === 'alertTopics');
      expect(endpoint.path === '/api/setting/profile' || endpoint.path === '/api/user', endpoint.path).toBe(routes);
      if (routes) expect(env.ALERT_EMAIL_TOPIC_ARN_PREFIX, endpoint.path).toBeDefined();
      else expect(env.ALERT_EMAIL_TOPIC_ARN_PREFIX, endpoint.path).toBeUndefined();
      const used = new Set(portsOf(ACTIONS_BY_ENDPOINT[endpoint.path]).flatMap((p) => PORT_GRANTS[p].flatMap((g) => ('table' in g ? [g.table] : []))));
      for (const table of TABLES) {
        const ref = (env[table.envVar] as { Ref?: string } | undefined)?.Ref;
        if (!used.has(table.id)) {
          expect(ref, `${endpoint.handler} ${table.envVar}`).toBeUndefined();
          continue;
        }
        expect(ref, `${endpoint.handler} ${table.envVar}`).toBeDefined();
        expect(resources[ref as string]?.Type).toBe('AWS::DynamoDB::GlobalTable');
      }
    }
  });

  it('carry an explicit bot-check: reCAPTCHA by default, never unset; only the user endpoint (password reset) and the pre-sign-up trigger may read its secret, at run time', () => {
    for (const endpoint of ENDPOINTS) {
      const env = functionEnv(template, endpointFunctionId(template, endpoint.path));
      expect(env.BOT_CHECK).toBe('recaptcha');
      expect(env.RECAPTCHA_SECRET, endpoint.path).toBeUndefined();
      expect(env.RECAPTCHA_SECRET_PARAMETER, endpoint.path).toBe(endpoint.path === '/api/user' ? '/vatman/recaptcha-secret' : undefined);
    }
    // The dairy-company sync reads its own token parameter (test/infra/dairy-link.test.ts); no other function reads a parameter.
    const readers = Object.values(template.findResources('AWS::IAM::Policy')).filter(
      (p) => JSON.stringify(p).includes('ssm:GetParameter') && !JSON.stringify(p).includes(':parameter/vatman/dairy-gateway-token'),
    );
    expect(readers).toHaveLength(2);
    for (const reader of readers) expect(JSON.stringify(reader)).toContain(':parameter/vatman/recaptcha-secret');
  });

  it('emails a reset link: the user pool runs a CustomMessage trigger that knows the web address', () => {
    const pool = resources[userPoolId]?.Properties as { LambdaConfig?: { CustomMessage?: { 'Fn::GetAtt': [string, string] } } };
    const triggerId = pool.LambdaConfig?.CustomMessage?.['Fn::GetAtt'][0] ?? '';
    expect(resources[triggerId]?.Type).toBe('AWS::Lambda::Function');
    expect(Object.keys(functionEnv(template, triggerId))).toContain('WEB_URL');
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] },
    });
  });

  it('lets a function whose actions only read a table read it, and nothing more (test/infra/permissions.test.ts lists every grant)', () => {
    const fnId = endpointFunctionId(template, '/api/farmer/dashboard');
    const env = functionEnv(template, fnId);
    const roleId = ((lambdaFunctions(template)[fnId]?.Properties?.Role) as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const farmsId = (env.FARMS_TABLE as { Ref: string }).Ref;
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Action: Match.arrayWith(['dynamodb:GetItem', 'dynamodb:Query']), Resource: Match.arrayWith([{ 'Fn::GetAtt': [farmsId, 'Arn'] }]) }),
        ]),
      },
    });
    const statements = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } })).flatMap(
      (p) => (p as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }).Properties.PolicyDocument.Statement,
    );
    expect(statements.flatMap((st) => [st.Action].flat()).filter((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a))).toEqual([]);
  });

  it('gives Cognito admin actions to /api/user (sign-up), /api/setting/profile (name, phone, the authenticator confirmation), /api/admin/user (roles), the live socket (reads a user and their groups) and the pre-token-generation trigger (reads a user) only, scoped to the pool', () => {
    const cognitoPolicies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      (p as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }).Properties.PolicyDocument.Statement.some((st) =>
        [st.Action].flat().some((a) => a.startsWith('cognito-idp:')),
      ),
    );
    // The fourth: the pre-token-generation trigger's AdminGetUser (asserted under auth); the fifth the live socket's.
    expect(cognitoPolicies).toHaveLength(5);
    const roleOf = (path: string) => ((lambdaFunctions(template)[endpointFunctionId(template, path)]?.Properties?.Role) as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleOf('/api/setting/profile') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          { Effect: 'Allow', Action: ['cognito-idp:AdminGetUser', 'cognito-idp:AdminUpdateUserAttributes', 'cognito-idp:AdminUserGlobalSignOut'], Resource: { 'Fn::GetAtt': [userPoolId, 'Arn'] } },
        ]),
      },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleOf('/api/user') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Allow',
            Action: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminDeleteUser', 'cognito-idp:AdminSetUserPassword'],
            Resource: { 'Fn::GetAtt': [userPoolId, 'Arn'] },
          },
        ]),
      },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleOf('/api/admin/user') }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Allow',
            Action: ['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminRemoveUserFromGroup', 'cognito-idp:ListUsersInGroup'],
            Resource: { 'Fn::GetAtt': [userPoolId, 'Arn'] },
          },
        ]),
      },
    });
  });

  it('gives the farm flag list (operator §6) to /api/admin/farm only: empty unless -c farmFlagUserIds names the ids', () => {
    for (const endpoint of ENDPOINTS) {
      expect(functionEnv(template, endpointFunctionId(template, endpoint.path)).FARM_FLAG_USER_IDS, endpoint.path).toBe(endpoint.path === '/api/admin/farm' ? '' : undefined);
    }
    const withIds = synthVatMan({ stage: 'prod', context: { farmFlagUserIds: 'sub-1, sub-2' } });
    try {
      expect(functionEnv(withIds.template, endpointFunctionId(withIds.template, '/api/admin/farm')).FARM_FLAG_USER_IDS).toBe('sub-1,sub-2');
    } finally {
      withIds.cleanup();
    }
  });

  it('may publish alerts (texts and email) to the users’ alert topics, and nowhere else', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Sid: 'PublishUserAlerts', Action: 'sns:Publish', Resource: Match.objectLike({ 'Fn::Join': Match.anyValue() }) })]),
      },
    });
    const publishAnywhere = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) =>
      ((p as { Properties: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } } }).Properties.PolicyDocument.Statement).filter(
        (st) => [st.Action].flat().includes('sns:Publish') && st.Resource === '*',
      ),
    );
    expect(publishAnywhere).toEqual([]);
  });
});

describe('data', () => {
  it('has one on-demand table with point-in-time recovery per entry of shared/data/tables.ts', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', TABLES.length);
    // The ingest binds every table: its environment names them all.
    const ingestId = Object.keys(lambdaFunctions(template)).find((id) => id.startsWith('TelemetryIngest')) as string;
    const env = functionEnv(template, ingestId);
    for (const table of TABLES) {
      const tableId = (env[table.envVar] as { Ref: string }).Ref;
      const props = resources[tableId]?.Properties ?? {};
      expect(props).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: table.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: table.sortKey.name, KeyType: 'RANGE' },
        ],
        Replicas: [expect.objectContaining({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
      });
      const indexNames = ((props.GlobalSecondaryIndexes ?? []) as { IndexName: string }[]).map((i) => i.IndexName);
      expect(indexNames).toEqual(table.globalSecondaryIndexes.map((i) => i.indexName));
      if (table.ttlAttribute) {
        expect(props.TimeToLiveSpecification).toEqual({ AttributeName: table.ttlAttribute, Enabled: true });
      } else {
        expect(props.TimeToLiveSpecification).toBeUndefined();
      }
    }
  });

  it('retains tables in prod and protects them from deletion', () => {
    for (const table of Object.values(template.findResources('AWS::DynamoDB::GlobalTable'))) {
      expect(table).toMatchObject({
        DeletionPolicy: 'Retain',
        Properties: { Replicas: [expect.objectContaining({ DeletionProtectionEnabled: true })] },
      });
    }
  });
});

describe('auth', () => {
  it('lets people sign up and sign in by email with a strong password', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: [],
      Policies: {
        PasswordPolicy: {
          MinimumLength: 8,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      Schema: Match.arrayWith(
        ['given_name', 'family_name', 'phone_number'].map((Name) => Match.objectLike({ Name })),
      ),
    });
  });

  it('has MFA OPTIONAL by authenticator app only, and a version 2 pre-token-generation trigger that may read users of this pool alone', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', { MfaConfiguration: 'OPTIONAL', EnabledMfas: ['SOFTWARE_TOKEN_MFA'] });
    const pool = resources[userPoolId]?.Properties as { LambdaConfig?: { PreTokenGenerationConfig?: { LambdaArn: { 'Fn::GetAtt': [string, string] }; LambdaVersion: string } } };
    const config = pool.LambdaConfig?.PreTokenGenerationConfig;
    expect(config?.LambdaVersion).toBe('V2_0');
    const triggerId = config?.LambdaArn['Fn::GetAtt'][0] ?? '';
    expect(resources[triggerId]?.Type).toBe('AWS::Lambda::Function');
    template.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'cognito-idp.amazonaws.com', FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] } });
    const roleId = (resources[triggerId]?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const policies = Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(roleId));
    const statements = policies.flatMap((p) => (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);
    expect(statements.filter((st) => JSON.stringify(st.Action).includes('cognito-idp'))).toEqual([
      expect.objectContaining({ Action: 'cognito-idp:AdminGetUser', Resource: { 'Fn::GetAtt': [userPoolId, 'Arn'] } }),
    ]);
  });

  it('runs the bot-check in a pre-sign-up trigger, so a direct Cognito SignUp cannot skip it: reCAPTCHA, the secret read from SSM at run time', () => {
    const pool = resources[userPoolId]?.Properties as { LambdaConfig?: { PreSignUp?: { 'Fn::GetAtt': [string, string] } } };
    const triggerId = pool.LambdaConfig?.PreSignUp?.['Fn::GetAtt'][0] ?? '';
    expect(resources[triggerId]?.Type).toBe('AWS::Lambda::Function');
    expect(functionEnv(template, triggerId)).toMatchObject({ BOT_CHECK: 'recaptcha', RECAPTCHA_SECRET_PARAMETER: '/vatman/recaptcha-secret' });
    template.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'cognito-idp.amazonaws.com', FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] } });
  });

  it('has one group per operator role', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolGroup', OPERATOR_GROUPS.length);
    for (const group of OPERATOR_GROUPS) {
      template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
        GroupName: group,
        UserPoolId: { Ref: userPoolId },
      });
    }
  });

  it('has a public web client with password and SRP sign-in', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      UserPoolId: { Ref: userPoolId },
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH']),
    });
  });
});

describe('alerts', () => {
  it('holds no alert topic: each user’s alert email topic is made at run time, its policy refusing publishing without TLS (lambdas/adapters/sns/alert-email.test.ts)', () => {
    // Its topics: enquiries, and the operators' alarms (test/infra/operator-alarms.test.ts).
    expect(Object.values(template.findResources('AWS::SNS::Topic')).map((t) => (t as { Properties: { DisplayName?: string } }).Properties.DisplayName).sort()).toEqual(['Vat-Man enquiries', 'Vat-Man operator alarms']);
  });

  it('mails enquiries to the sales address through the enquiry topic, which refuses publishing without TLS', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: DEFAULT_CONTACTS.salesEmail });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });
});

describe('web', () => {
  it('sends a strict Content-Security-Policy and the security headers with every page (shared/web/security-headers.ts)', () => {
    const policyId = onlyResourceId(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const config = (resources[policyId]?.Properties as { ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Record<string, Record<string, unknown>> } }).ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    const csp = JSON.stringify(config.ContentSecurityPolicy?.ContentSecurityPolicy);
    for (const directive of ["default-src 'self'", "script-src 'self' https://www.google.com/recaptcha/", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'"]) expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-eval');
    // The API is on the site's own origin (/api/*): 'self', and no other CloudFront host.
    // So is the live socket (/live): no execute-api host either.
    expect(csp).toMatch(/connect-src 'self' https:\/\/cognito-idp\./);
    expect(csp).not.toContain('cloudfront.net');
    expect(csp).not.toContain('execute-api');
    expect(config.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true });
    expect(config.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: { DefaultCacheBehavior: { ResponseHeadersPolicyId: { Ref: policyId } } },
    });
  });

  it('serves a private bucket through CloudFront with origin access control and SPA fallback by a viewer-request function', () => {
    const oacId = onlyResourceId(template, 'AWS::CloudFront::OriginAccessControl');
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always' },
    });
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        DefaultRootObject: 'index.html',
        Origins: Match.arrayWith([Match.objectLike({ OriginAccessControlId: { 'Fn::GetAtt': [oacId, 'Id'] } })]),
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [onlyResourceId(template, 'AWS::CloudFront::Function'), 'FunctionARN'] } }],
        }),
        Logging: Match.objectLike({ Bucket: Match.anyValue() }),
      },
    });
    // No error-response rewrite: it would turn the API's own 403 and 404 answers into index.html.
    expect(distributionConfig().CustomErrorResponses).toBeUndefined();
    template.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: SPA_FALLBACK_FUNCTION, FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }), AutoPublish: true });
    const buckets = Object.values(template.findResources('AWS::S3::Bucket'));
    expect(buckets.length).toBeGreaterThan(0);
    for (const bucket of buckets) {
      expect(bucket).toMatchObject({
        Properties: {
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            BlockPublicPolicy: true,
            IgnorePublicAcls: true,
            RestrictPublicBuckets: true,
          },
        },
      });
    }
  });

  it("rewrites the app's deep links to index.html and leaves the build's files alone (the function's own code, run here)", () => {
    for (const deep of ['/', '/dts/dashboard', '/dts/password/reset/a.b.c', '/dts/login/%2Fdts%2Fdevice', '/admin/users', '/dashboard']) expect(spaFallbackUri(deep), deep).toBe('/index.html');
    for (const file of ['/config.json', '/assets/index-AbC123.js', '/icons/vatman-192.png', '/manifest.webmanifest', '/installer/radar-clock.svg', '/sw.js']) expect(spaFallbackUri(file), file).toBe(file);
  });

  it('deploys the web build and a config.json of the WebConfig shape pointing at this stack', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(1);
    const props = (deployments[0] as { Properties: Record<string, unknown> }).Properties;
    const keys = props.SourceObjectKeys as string[];
    const markers = props.SourceMarkers as Record<string, unknown>[];
    expect(keys).toHaveLength(2);

    // The second source is Source.jsonData('config.json', …): its file sits in the assembly with
    // markers that the deployment replaces by the values below.
    const configAsset = path.join(synth.assembly.directory, `asset.${(keys[1] as string).replace(/\.zip$/, '')}`, 'config.json');
    const raw = JSON.parse(readFileSync(configAsset, 'utf8')) as Record<string, unknown>;
    // Values known at synth (the reCAPTCHA site key from context) stand as they are.
    expect(markers[1]?.['<<marker:0xbaba:0>>']).toEqual({ 'Fn::GetAtt': [distributionId(), 'DomainName'] });
    expect(markers[1]?.['<<marker:0xbaba:1>>']).toEqual({ 'Fn::GetAtt': [distributionId(), 'DomainName'] });
    const resolved = Object.fromEntries(Object.entries(raw).map(([k, marker]) => [k, typeof marker === 'string' ? (markers[1]?.[marker] ?? marker) : marker]));
    expect(resolved).toEqual({
      // The site's own CloudFront address (the API is its /api/*): the marker stands for its domain name.
      apiUrl: 'https://<<marker:0xbaba:0>>',
      // The live-updates WebSocket through the same distribution: wss://<site>/live.
      liveUrl: 'wss://<<marker:0xbaba:1>>/live',
      region: { Ref: 'AWS::Region' },
      userPoolId: { Ref: userPoolId },
      userPoolClientId: { Ref: clientId },
      supportUrl: DEFAULT_CONTACTS.supportUrl,
      supportPhones: DEFAULT_CONTACTS.supportPhones,
      herdSiteUrl: DEFAULT_CONTACTS.herdSiteUrl,
      recaptchaSiteKey: TEST_RECAPTCHA_SITE_KEY,
    });
    // Same keys the web app parses at start; with sample values it is a valid web config.
    const sample = {
      apiUrl: 'https://abc123.execute-api.ap-southeast-2.amazonaws.com',
      liveUrl: 'wss://def456.execute-api.ap-southeast-2.amazonaws.com/live',
      region: 'ap-southeast-2',
      userPoolId: 'ap-southeast-2_abc',
      userPoolClientId: 'client',
      supportUrl: DEFAULT_CONTACTS.supportUrl,
      supportPhones: DEFAULT_CONTACTS.supportPhones,
      herdSiteUrl: DEFAULT_CONTACTS.herdSiteUrl,
      recaptchaSiteKey: TEST_RECAPTCHA_SITE_KEY,
    };
    expect(Object.keys(raw).sort()).toEqual(Object.keys(sample).sort());
    expect(parseWebConfig(sample)).toEqual({ success: true, data: sample });
  });

  it('skips the frontend build when bundling is skipped (the tests never run Vite)', () => {
    const assetDirs = readdirSync(synth.assembly.directory).filter((d) => d.startsWith('asset.'));
    for (const dir of assetDirs) {
      expect(existsSync(path.join(synth.assembly.directory, dir, 'index.html'))).toBe(false);
    }
  });
});

describe('throttling per caller', () => {
  it("puts the API behind CloudFront (HTTP APIs take no WAF) on the site's own origin: /api/*, no caching, the bearer forwarded, HTTPS only, to the API", () => {
    const { behaviour, origin } = apiBehaviour();
    expect(JSON.stringify(origin.DomainName)).toContain(apiId);
    expect(origin.CustomOriginConfig?.OriginProtocolPolicy).toBe('https-only');
    expect(behaviour.AllowedMethods).toContain('POST');
    expect(behaviour.ViewerProtocolPolicy).toBe('https-only');
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: { DefaultTTL: 0, MinTTL: 0, ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({ HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['Authorization'] } }) },
    });
    expect(resources[behaviour.CachePolicyId.Ref]?.Type).toBe('AWS::CloudFront::CachePolicy');
  });

  it("closes the way around the WAF: CloudFront adds the origin secret's header and every API function checks it (ORIGIN_VERIFY)", () => {
    const secretId = onlyResourceId(template, 'AWS::SecretsManager::Secret');
    template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 48, ExcludePunctuation: true }) });
    // A deploy-time dynamic reference to the secret, the same in both places; its value is in no template.
    const reference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
    expect(apiBehaviour().origin.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_HEADER, HeaderValue: reference }]);
    for (const endpoint of ENDPOINTS) {
      const fnId = endpointFunctionId(template, endpoint.path);
      expect(functionEnv(template, fnId).ORIGIN_VERIFY, endpoint.path).toEqual(reference);
      // Updated after the distribution is deployed everywhere: the check never runs ahead of the header.
      expect((resources[fnId] as { DependsOn?: string[] }).DependsOn, endpoint.path).toContain(distributionId());
    }
  });

  it('gives the distribution (the site and the API) the edge web ACL: from the SSM parameter by default, or -c edgeWebAclArn', () => {
    const acl = (resources[distributionId()]?.Properties as { DistributionConfig: { WebACLId?: { Ref: string } } }).DistributionConfig.WebACLId;
    const parameters = template.toJSON().Parameters as Record<string, { Type: string; Default: string }>;
    expect(parameters[acl?.Ref ?? '']).toMatchObject({ Type: 'AWS::SSM::Parameter::Value<String>', Default: EDGE_WEB_ACL_PARAMETER });
    const arn = 'arn:aws:wafv2:us-east-1:111122223333:global/webacl/vatman/abc';
    const given = synthVatMan({ stage: 'prod', context: { edgeWebAclArn: arn } });
    try {
      expect(Object.values(given.template.findResources('AWS::CloudFront::Distribution')).map((d) => (d as { Properties: { DistributionConfig: { WebACLId: unknown } } }).Properties.DistributionConfig.WebACLId)).toEqual([arn]);
    } finally {
      given.cleanup();
    }
  });

  it('makes the web ACL in us-east-1 (CLOUDFRONT scope) with the per-IP rate rule of shared/api/throttle.ts and AWS common rules', () => {
    const { edge } = createVatManApp({ context: { 'aws:cdk:bundling-stacks': [], recaptchaSiteKey: TEST_RECAPTCHA_SITE_KEY } });
    expect(edge.region).toBe('us-east-1');
    const edgeTemplate = Template.fromStack(edge);
    edgeTemplate.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: Match.arrayWith([
        Match.objectLike({ Action: { Block: { CustomResponse: { ResponseCode: 429 } } }, Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: API_RATE_PER_IP.limit, EvaluationWindowSec: API_RATE_PER_IP.windowSeconds } } }),
        Match.objectLike({ Statement: { ManagedRuleGroupStatement: Match.objectLike({ VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' }) } }),
      ]),
    });
    expect(Object.keys(edgeTemplate.toJSON().Outputs ?? {})).toEqual(['WebAclArn']);
  });
});

describe('stack outputs and checks', () => {
  it('exports the addresses and ids a client or operator needs', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['ApiUrl', 'DevicePolicyName', 'IngestDeadLetterQueueUrl', 'IngestStreamName', 'OperatorAlarmTopicArn', 'Region', 'UserPoolClientId', 'UserPoolId', 'WebUrl']);
    expect(outputs.ApiUrl?.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId(), 'DomainName'] }]] });
    expect(outputs.WebUrl?.Value).toEqual(outputs.ApiUrl?.Value);
    expect(outputs.UserPoolId?.Value).toEqual({ Ref: userPoolId });
    expect(outputs.UserPoolClientId?.Value).toEqual({ Ref: clientId });
  });

  it('has no unacknowledged cdk-nag AwsSolutions findings', () => {
    // A finding would already have thrown in synthVatMan; the report confirms nothing is left.
    expect(nagViolations(synth.assembly)).toEqual([]);
  });
});
