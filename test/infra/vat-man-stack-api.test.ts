import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { API_LOAD_RATE, API_RATE_PER_IP, API_THROTTLE } from '../../shared/api/throttle';
import { tokenBucket } from '../../local/stand-ins/api-gateway';
import { createVatManApp } from '../../cdk/lib/app';
import { EDGE_WEB_ACL_PARAMETER } from '../../cdk/lib/vat-man-stack';
import { ENDPOINTS } from '../../shared/api/endpoints';
import { ACTIONS_BY_ENDPOINT } from '../../lambdas/api/actions-by-endpoint';
import { portsOf } from '../../lambdas/lib/dispatch';
import { PORT_GRANTS } from '../../cdk/lib/port-grants';
import { TABLES } from '../../shared/data/tables';
import { ORIGIN_HEADER } from '../../lambdas/ports/function-settings';
import { mainStackForFile } from './stack-facts';
import { endpointFunctionId, functionEnv, lambdaFunctions, onlyResourceId, synthVatMan, TEST_RECAPTCHA_SITE_KEY } from './synth';

/** The main stack's API: the live-updates socket, the HTTP API's routes, its functions and their grants, and the edge in front of it. */
const stack = mainStackForFile();

describe('live updates', () => {
  it("is reached through the web distribution's /live (its WAF, the site's own origin): the handshake's headers and token forwarded, nothing cached, and $connect checks the origin secret's header", () => {
    const config = stack.facts.distributionConfig();
    const behaviour = config.CacheBehaviors?.find((b) => b.PathPattern === '/live');
    expect(behaviour).toBeDefined();
    const origin = config.Origins.find((o) => o.Id === behaviour?.TargetOriginId);
    const ws = Object.keys(stack.template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }))[0] as string;
    expect(JSON.stringify(origin?.DomainName)).toContain(ws);
    expect(origin?.CustomOriginConfig?.OriginProtocolPolicy).toBe('https-only');
    expect(behaviour?.ViewerProtocolPolicy).toBe('https-only');
    // AWS's managed policies: CachingDisabled, and AllViewerExceptHostHeader (Sec-WebSocket-* and the query string go on).
    expect(behaviour?.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect((behaviour as unknown as { OriginRequestPolicyId: string }).OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    const reference = stack.facts.originSecretReference();
    expect(origin?.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_HEADER, HeaderValue: reference }]);
    const live = Object.keys(stack.template.findResources('AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('^Vat-Man live updates WebSocket') } }));
    expect(live).toHaveLength(1);
    const fnId = live[0] as string;
    expect(functionEnv(stack.template, fnId).ORIGIN_VERIFY).toEqual(reference);
    expect((stack.facts.resources[fnId] as { DependsOn?: string[] }).DependsOn).toContain(stack.facts.distributionId());
  });

  it('has a WebSocket API routing on the message action, with $connect, $disconnect, $default and subscribe, throttled and logged', () => {
    const ws = Object.keys(stack.template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }));
    expect(ws).toHaveLength(1);
    stack.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    const keys = Object.values(stack.template.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: { Ref: ws[0] } } })).map((r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey);
    expect(keys.sort()).toEqual(['$connect', '$default', '$disconnect', 'subscribe']);
    stack.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: ws[0] },
      StageName: 'live',
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: Match.anyValue() }),
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] }, Format: Match.stringLikeRegexp('connectionId') },
    });
  });
});

describe('API routes', () => {
  it('has exactly one POST route per endpoint of shared/api/endpoints.ts', () => {
    expect(Object.keys(stack.template.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: { Ref: stack.facts.apiId } } }))).toHaveLength(ENDPOINTS.length);
    for (const endpoint of ENDPOINTS) {
      stack.template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        ApiId: { Ref: stack.facts.apiId },
        RouteKey: `POST ${endpoint.path}`,
      });
    }
  });

  it('sends each route to its own Lambda built from lambdas/api/<handler>.ts', () => {
    const targets = ENDPOINTS.map((e) => stack.facts.routeFunctionId(`POST ${e.path}`));
    expect(new Set(targets).size).toBe(ENDPOINTS.length);
    ENDPOINTS.forEach((e, i) => expect(targets[i]).toBe(endpointFunctionId(stack.template, e.path)));
  });

  it('guards every jwt route with the Cognito JWT authorizer and leaves /api/user public', () => {
    const authorizerId = onlyResourceId(stack.template, 'AWS::ApiGatewayV2::Authorizer');
    stack.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Audience: [{ Ref: stack.facts.clientId }], Issuer: stack.facts.issuer() },
    });
    for (const endpoint of ENDPOINTS) {
      stack.template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: `POST ${endpoint.path}`,
        ...(endpoint.auth === 'jwt'
          ? { AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } }
          : { AuthorizationType: 'NONE', AuthorizerId: Match.absent() }),
      });
    }
    expect(ENDPOINTS.filter((e) => e.auth === 'public').map((e) => e.path)).toEqual(['/api/user']);
  });

  it('allows no cross-origin calls: the web app calls the API on its own origin (/api/*), so no CORS and no preflight', () => {
    const apis = Object.values(stack.template.findResources('AWS::ApiGatewayV2::Api')) as { Properties: { ProtocolType: string; CorsConfiguration?: unknown } }[];
    const http = apis.filter((a) => a.Properties.ProtocolType === 'HTTP');
    expect(http).toHaveLength(1);
    expect(http[0]?.Properties.CorsConfiguration).toBeUndefined();
  });

  it('throttles the default stage and writes JSON access logs to a log group', () => {
    const stages = stack.template.findResources('AWS::ApiGatewayV2::Stage', { Properties: { ApiId: { Ref: stack.facts.apiId } } });
    expect(Object.keys(stages)).toHaveLength(1);
    stack.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
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
    expect(stack.facts.resources[stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0]]?.Type).toBe('AWS::Logs::LogGroup');
  });

  it("lets the load run's reads through the stage throttle: 200 a second for 5 minutes, in clumps of 40 (autocannon's connections), none refused", () => {
    const stage = Object.values(stack.template.findResources('AWS::ApiGatewayV2::Stage', { Properties: { ApiId: { Ref: stack.facts.apiId } } }))[0] as {
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

describe('API Lambdas: runtime and settings', () => {
  it('run on nodejs24.x, arm64, handler export `handler`, with source maps and their own log group', () => {
    for (const endpoint of ENDPOINTS) {
      const id = endpointFunctionId(stack.template, endpoint.path);
      const fn = lambdaFunctions(stack.template)[id]?.Properties ?? {};
      expect(fn).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
      });
      expect(functionEnv(stack.template, id).NODE_OPTIONS).toBe('--enable-source-maps');
      const logGroupId = (fn.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(stack.facts.resources[logGroupId]?.Type).toBe('AWS::Logs::LogGroup');
      expect(stack.facts.resources[logGroupId]?.Properties.RetentionInDays).toEqual(expect.any(Number));
    }
  });

  it('receive the pool, client, issuer and JWKS, and the names of exactly the tables their actions\' ports use', () => {
    for (const endpoint of ENDPOINTS) {
      const env = functionEnv(stack.template, endpointFunctionId(stack.template, endpoint.path));
      expect(env).toMatchObject({
        USER_POOL_ID: { Ref: stack.facts.userPoolId },
        USER_POOL_CLIENT_ID: { Ref: stack.facts.clientId },
        JWT_ISSUER: stack.facts.issuer(),
        JWKS_URI: {
          'Fn::Join': ['', [...stack.facts.issuerParts(), '/.well-known/jwks.json']],
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
        expect(stack.facts.resources[ref as string]?.Type).toBe('AWS::DynamoDB::GlobalTable');
      }
    }
  });

  it('carry an explicit bot-check: reCAPTCHA by default, never unset; only the user endpoint (password reset) and the pre-sign-up trigger may read its secret, at run time', () => {
    for (const endpoint of ENDPOINTS) {
      const env = functionEnv(stack.template, endpointFunctionId(stack.template, endpoint.path));
      expect(env.BOT_CHECK).toBe('recaptcha');
      expect(env.RECAPTCHA_SECRET, endpoint.path).toBeUndefined();
      expect(env.RECAPTCHA_SECRET_PARAMETER, endpoint.path).toBe(endpoint.path === '/api/user' ? '/vatman/recaptcha-secret' : undefined);
    }
    // The dairy-company sync reads its own token parameter (test/infra/dairy-link.test.ts); no other function reads a parameter.
    const readers = Object.values(stack.template.findResources('AWS::IAM::Policy')).filter(
      (p) => JSON.stringify(p).includes('ssm:GetParameter') && !JSON.stringify(p).includes(':parameter/vatman/dairy-gateway-token') && !JSON.stringify(p).includes(':parameter/vatman/vapid-private-key'),
    );
    expect(readers).toHaveLength(2);
    for (const reader of readers) expect(JSON.stringify(reader)).toContain(':parameter/vatman/recaptcha-secret');
    // The VAPID private key (Web Push) is read by the functions that send pushes alone: the ingest and the sweep (the notifier).
    const pushers = Object.entries(stack.template.findResources('AWS::IAM::Policy'))
      .filter(([, p]) => JSON.stringify(p).includes(':parameter/vatman/vapid-private-key'))
      .map(([id]) => id)
      .sort();
    expect(pushers).toEqual([expect.stringMatching(/^AlertEngineSweep/), expect.stringMatching(/^TelemetryIngest/)]);
  });

  it('emails a reset link: the user pool runs a CustomMessage trigger that knows the web address', () => {
    const pool = stack.facts.resources[stack.facts.userPoolId]?.Properties as { LambdaConfig?: { CustomMessage?: { 'Fn::GetAtt': [string, string] } } };
    const triggerId = pool.LambdaConfig?.CustomMessage?.['Fn::GetAtt'][0] ?? '';
    expect(stack.facts.resources[triggerId]?.Type).toBe('AWS::Lambda::Function');
    expect(Object.keys(functionEnv(stack.template, triggerId))).toContain('WEB_URL');
    stack.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] },
    });
  });
});

describe('API Lambdas: permissions', () => {
  it('lets a function whose actions only read a table read it, and nothing more (test/infra/permissions.test.ts lists every grant)', () => {
    const fnId = endpointFunctionId(stack.template, '/api/farmer/dashboard');
    const env = functionEnv(stack.template, fnId);
    const roleId = ((lambdaFunctions(stack.template)[fnId]?.Properties?.Role) as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const farmsId = (env.FARMS_TABLE as { Ref: string }).Ref;
    stack.template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Action: Match.arrayWith(['dynamodb:GetItem', 'dynamodb:Query']), Resource: Match.arrayWith([{ 'Fn::GetAtt': [farmsId, 'Arn'] }]) }),
        ]),
      },
    });
    const statements = Object.values(stack.template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } })).flatMap(
      (p) => (p as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }).Properties.PolicyDocument.Statement,
    );
    expect(statements.flatMap((st) => [st.Action].flat()).filter((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a))).toEqual([]);
  });

  it('gives Cognito admin actions to /api/user (sign-up), /api/setting/profile (name, phone, the authenticator confirmation), /api/admin/user (roles), the live socket (reads a user and their groups) and the pre-token-generation trigger (reads a user) only, scoped to the pool', () => {
    const cognitoPolicies = Object.values(stack.template.findResources('AWS::IAM::Policy')).filter((p) =>
      (p as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }).Properties.PolicyDocument.Statement.some((st) =>
        [st.Action].flat().some((a) => a.startsWith('cognito-idp:')),
      ),
    );
    // The fourth: the pre-token-generation trigger's AdminGetUser (asserted under auth); the fifth the live socket's.
    expect(cognitoPolicies).toHaveLength(5);
    const roleOf = (path: string) => ((lambdaFunctions(stack.template)[endpointFunctionId(stack.template, path)]?.Properties?.Role) as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const grants: [string, string[]][] = [
      ['/api/setting/profile', ['cognito-idp:AdminGetUser', 'cognito-idp:AdminUpdateUserAttributes', 'cognito-idp:AdminUserGlobalSignOut']],
      ['/api/user', ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminDeleteUser', 'cognito-idp:AdminSetUserPassword']],
      ['/api/admin/user', ['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminRemoveUserFromGroup', 'cognito-idp:ListUsersInGroup']],
    ];
    for (const [path, actions] of grants) {
      stack.template.hasResourceProperties('AWS::IAM::Policy', {
        Roles: [{ Ref: roleOf(path) }],
        PolicyDocument: { Statement: Match.arrayWith([{ Effect: 'Allow', Action: actions, Resource: { 'Fn::GetAtt': [stack.facts.userPoolId, 'Arn'] } }]) },
      });
    }
  });

  it('gives the farm flag list (operator §6) to /api/admin/farm only: empty unless -c farmFlagUserIds names the ids', () => {
    for (const endpoint of ENDPOINTS) {
      expect(functionEnv(stack.template, endpointFunctionId(stack.template, endpoint.path)).FARM_FLAG_USER_IDS, endpoint.path).toBe(endpoint.path === '/api/admin/farm' ? '' : undefined);
    }
    const withIds = synthVatMan({ stage: 'prod', context: { farmFlagUserIds: 'sub-1, sub-2' } });
    try {
      expect(functionEnv(withIds.template, endpointFunctionId(withIds.template, '/api/admin/farm')).FARM_FLAG_USER_IDS).toBe('sub-1,sub-2');
    } finally {
      withIds.cleanup();
    }
  });

  it('may publish alerts (texts and email) to the users’ alert topics, and nowhere else', () => {
    stack.template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Sid: 'PublishUserAlerts', Action: 'sns:Publish', Resource: Match.objectLike({ 'Fn::Join': Match.anyValue() }) })]),
      },
    });
    const publishAnywhere = Object.values(stack.template.findResources('AWS::IAM::Policy')).flatMap((p) =>
      ((p as { Properties: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } } }).Properties.PolicyDocument.Statement).filter(
        (st) => [st.Action].flat().includes('sns:Publish') && st.Resource === '*',
      ),
    );
    expect(publishAnywhere).toEqual([]);
  });
});

describe('throttling per caller', () => {
  it("puts the API behind CloudFront (HTTP APIs take no WAF) on the site's own origin: /api/*, no caching, the bearer forwarded, HTTPS only, to the API", () => {
    const { behaviour, origin } = stack.facts.apiBehaviour();
    expect(JSON.stringify(origin.DomainName)).toContain(stack.facts.apiId);
    expect(origin.CustomOriginConfig?.OriginProtocolPolicy).toBe('https-only');
    expect(behaviour.AllowedMethods).toContain('POST');
    expect(behaviour.ViewerProtocolPolicy).toBe('https-only');
    stack.template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: { DefaultTTL: 0, MinTTL: 0, ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({ HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['Authorization'] } }) },
    });
    expect(stack.facts.resources[behaviour.CachePolicyId.Ref]?.Type).toBe('AWS::CloudFront::CachePolicy');
  });

  it("closes the way around the WAF: CloudFront adds the origin secret's header and every API function checks it (ORIGIN_VERIFY)", () => {
    stack.template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 48, ExcludePunctuation: true }) });
    // A deploy-time dynamic reference to the secret, the same in both places; its value is in no stack.template.
    const reference = stack.facts.originSecretReference();
    expect(stack.facts.apiBehaviour().origin.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_HEADER, HeaderValue: reference }]);
    for (const endpoint of ENDPOINTS) {
      const fnId = endpointFunctionId(stack.template, endpoint.path);
      expect(functionEnv(stack.template, fnId).ORIGIN_VERIFY, endpoint.path).toEqual(reference);
      // Updated after the distribution is deployed everywhere: the check never runs ahead of the header.
      expect((stack.facts.resources[fnId] as { DependsOn?: string[] }).DependsOn, endpoint.path).toContain(stack.facts.distributionId());
    }
  });

  it('gives the distribution (the site and the API) the edge web ACL: from the SSM parameter by default, or -c edgeWebAclArn', () => {
    const acl = (stack.facts.resources[stack.facts.distributionId()]?.Properties as { DistributionConfig: { WebACLId?: { Ref: string } } }).DistributionConfig.WebACLId;
    const parameters = stack.template.toJSON().Parameters as Record<string, { Type: string; Default: string }>;
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
