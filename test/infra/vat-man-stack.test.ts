import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { SPA_FALLBACK_FUNCTION, spaFallbackUri } from '../../cdk/lib/spa-fallback';
import { DEFAULT_CONTACTS, parseWebConfig } from '../../shared/config';
import { TABLES } from '../../shared/data/tables';
import { OPERATOR_GROUPS } from '../../shared/roles';
import { mainStackForFile } from './stack-facts';
import { functionEnv, lambdaFunctions, nagViolations, onlyResourceId, TEST_RECAPTCHA_SITE_KEY } from './synth';

/** The main stack's tables, user pool, topics, web hosting and outputs (its API: vat-man-stack-api.test.ts). */
const stack = mainStackForFile();

describe('data', () => {
  it('has one on-demand table with point-in-time recovery per entry of shared/data/tables.ts', () => {
    stack.template.resourceCountIs('AWS::DynamoDB::GlobalTable', TABLES.length);
    // The ingest binds every table: its environment names them all.
    const ingestId = Object.keys(lambdaFunctions(stack.template)).find((id) => id.startsWith('TelemetryIngest')) as string;
    const env = functionEnv(stack.template, ingestId);
    for (const table of TABLES) {
      const tableId = (env[table.envVar] as { Ref: string }).Ref;
      const props = stack.facts.resources[tableId]?.Properties ?? {};
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
    for (const table of Object.values(stack.template.findResources('AWS::DynamoDB::GlobalTable'))) {
      expect(table).toMatchObject({
        DeletionPolicy: 'Retain',
        Properties: { Replicas: [expect.objectContaining({ DeletionProtectionEnabled: true })] },
      });
    }
  });
});

describe('auth', () => {
  it('lets people sign up and sign in by email with a strong password', () => {
    stack.template.hasResourceProperties('AWS::Cognito::UserPool', {
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
    stack.template.hasResourceProperties('AWS::Cognito::UserPool', { MfaConfiguration: 'OPTIONAL', EnabledMfas: ['SOFTWARE_TOKEN_MFA'] });
    const pool = stack.facts.resources[stack.facts.userPoolId]?.Properties as { LambdaConfig?: { PreTokenGenerationConfig?: { LambdaArn: { 'Fn::GetAtt': [string, string] }; LambdaVersion: string } } };
    const config = pool.LambdaConfig?.PreTokenGenerationConfig;
    expect(config?.LambdaVersion).toBe('V2_0');
    const triggerId = config?.LambdaArn['Fn::GetAtt'][0] ?? '';
    expect(stack.facts.resources[triggerId]?.Type).toBe('AWS::Lambda::Function');
    stack.template.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'cognito-idp.amazonaws.com', FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] } });
    const roleId = (stack.facts.resources[triggerId]?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const policies = Object.values(stack.facts.resources).filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(roleId));
    const statements = policies.flatMap((p) => (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);
    expect(statements.filter((st) => JSON.stringify(st.Action).includes('cognito-idp'))).toEqual([
      expect.objectContaining({ Action: 'cognito-idp:AdminGetUser', Resource: { 'Fn::GetAtt': [stack.facts.userPoolId, 'Arn'] } }),
    ]);
  });

  it('runs the bot-check in a pre-sign-up trigger, so a direct Cognito SignUp cannot skip it: reCAPTCHA, the secret read from SSM at run time', () => {
    const pool = stack.facts.resources[stack.facts.userPoolId]?.Properties as { LambdaConfig?: { PreSignUp?: { 'Fn::GetAtt': [string, string] } } };
    const triggerId = pool.LambdaConfig?.PreSignUp?.['Fn::GetAtt'][0] ?? '';
    expect(stack.facts.resources[triggerId]?.Type).toBe('AWS::Lambda::Function');
    expect(functionEnv(stack.template, triggerId)).toMatchObject({ BOT_CHECK: 'recaptcha', RECAPTCHA_SECRET_PARAMETER: '/vatman/recaptcha-secret' });
    stack.template.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'cognito-idp.amazonaws.com', FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] } });
  });

  it('has one group per operator role', () => {
    stack.template.resourceCountIs('AWS::Cognito::UserPoolGroup', OPERATOR_GROUPS.length);
    for (const group of OPERATOR_GROUPS) {
      stack.template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
        GroupName: group,
        UserPoolId: { Ref: stack.facts.userPoolId },
      });
    }
  });

  it('has a public web client with password and SRP sign-in', () => {
    stack.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      UserPoolId: { Ref: stack.facts.userPoolId },
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH']),
    });
  });
});

describe('alerts', () => {
  it('holds no alert topic: each user’s alert email topic is made at run time, its policy refusing publishing without TLS (lambdas/adapters/sns/alert-email.test.ts)', () => {
    // Its topics: enquiries, and the operators' alarms (test/infra/operator-alarms.test.ts).
    expect(Object.values(stack.template.findResources('AWS::SNS::Topic')).map((t) => (t as { Properties: { DisplayName?: string } }).Properties.DisplayName).sort()).toEqual(['Vat-Man enquiries', 'Vat-Man operator alarms']);
  });

  it('mails enquiries to the sales address through the enquiry topic, which refuses publishing without TLS', () => {
    stack.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: DEFAULT_CONTACTS.salesEmail });
    stack.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });
});

describe('web', () => {
  it('sends a strict Content-Security-Policy and the security headers with every page (shared/web/security-headers.ts)', () => {
    const policyId = onlyResourceId(stack.template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const config = (stack.facts.resources[policyId]?.Properties as { ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Record<string, Record<string, unknown>> } }).ResponseHeadersPolicyConfig.SecurityHeadersConfig;
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
    stack.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: { DefaultCacheBehavior: { ResponseHeadersPolicyId: { Ref: policyId } } },
    });
  });

  it('serves a private bucket through CloudFront with origin access control and SPA fallback by a viewer-request function', () => {
    const oacId = onlyResourceId(stack.template, 'AWS::CloudFront::OriginAccessControl');
    stack.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always' },
    });
    stack.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        DefaultRootObject: 'index.html',
        Origins: Match.arrayWith([Match.objectLike({ OriginAccessControlId: { 'Fn::GetAtt': [oacId, 'Id'] } })]),
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [onlyResourceId(stack.template, 'AWS::CloudFront::Function'), 'FunctionARN'] } }],
        }),
        Logging: Match.objectLike({ Bucket: Match.anyValue() }),
      },
    });
    // No error-response rewrite: it would turn the API's own 403 and 404 answers into index.html.
    expect(stack.facts.distributionConfig().CustomErrorResponses).toBeUndefined();
    stack.template.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: SPA_FALLBACK_FUNCTION, FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }), AutoPublish: true });
    const buckets = Object.values(stack.template.findResources('AWS::S3::Bucket'));
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
    const deployments = Object.values(stack.template.findResources('Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(1);
    const props = (deployments[0] as { Properties: Record<string, unknown> }).Properties;
    const keys = props.SourceObjectKeys as string[];
    const markers = props.SourceMarkers as Record<string, unknown>[];
    expect(keys).toHaveLength(2);

    // The second source is Source.jsonData('config.json', …): its file sits in the assembly with
    // markers that the deployment replaces by the values below.
    const configAsset = path.join(stack.synth.assembly.directory, `asset.${(keys[1] as string).replace(/\.zip$/, '')}`, 'config.json');
    const raw = JSON.parse(readFileSync(configAsset, 'utf8')) as Record<string, unknown>;
    // Values known at synth (the reCAPTCHA site key from context) stand as they are.
    expect(markers[1]?.['<<marker:0xbaba:0>>']).toEqual({ 'Fn::GetAtt': [stack.facts.distributionId(), 'DomainName'] });
    expect(markers[1]?.['<<marker:0xbaba:1>>']).toEqual({ 'Fn::GetAtt': [stack.facts.distributionId(), 'DomainName'] });
    const { vapidPublicKey, ...resolved } = Object.fromEntries(Object.entries(raw).map(([k, marker]) => [k, typeof marker === 'string' ? (markers[1]?.[marker] ?? marker) : marker]));
    // Web Push's public key: from SSM at deploy time without -c vapidPublicKey.
    expect(vapidPublicKey).toEqual({ Ref: expect.stringMatching(/^SsmParameterValuevatmanvapidpublickey/) });
    expect(resolved).toEqual({
      // The site's own CloudFront address (the API is its /api/*): the marker stands for its domain name.
      apiUrl: 'https://<<marker:0xbaba:0>>',
      // The live-updates WebSocket through the same distribution: wss://<site>/live.
      liveUrl: 'wss://<<marker:0xbaba:1>>/live',
      region: { Ref: 'AWS::Region' },
      userPoolId: { Ref: stack.facts.userPoolId },
      userPoolClientId: { Ref: stack.facts.clientId },
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
      vapidPublicKey: 'BNbxGYNMhEIi9zrneh7mqV4oUanjLUK3m-mYZBc62frMKrEoMk88r3Lk596T0ck9xlT-TjMbUMdvOnhYWZ7mMq0',
    };
    expect(Object.keys(raw).sort()).toEqual(Object.keys(sample).sort());
    expect(parseWebConfig(sample)).toEqual({ success: true, data: sample });
  });

  it('skips the frontend build when bundling is skipped (the tests never run Vite)', () => {
    const assetDirs = readdirSync(stack.synth.assembly.directory).filter((d) => d.startsWith('asset.'));
    for (const dir of assetDirs) {
      expect(existsSync(path.join(stack.synth.assembly.directory, dir, 'index.html'))).toBe(false);
    }
  });
});

describe('stack outputs and checks', () => {
  it('exports the addresses and ids a client or operator needs', () => {
    const outputs = stack.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['ApiUrl', 'DevicePolicyName', 'IngestDeadLetterQueueUrl', 'IngestStreamName', 'OperatorAlarmTopicArn', 'Region', 'UserPoolClientId', 'UserPoolId', 'WebUrl']);
    expect(outputs.ApiUrl?.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [stack.facts.distributionId(), 'DomainName'] }]] });
    expect(outputs.WebUrl?.Value).toEqual(outputs.ApiUrl?.Value);
    expect(outputs.UserPoolId?.Value).toEqual({ Ref: stack.facts.userPoolId });
    expect(outputs.UserPoolClientId?.Value).toEqual({ Ref: stack.facts.clientId });
  });

  it('has no unacknowledged cdk-nag AwsSolutions findings', () => {
    // A finding would already have thrown in synthVatMan; the report confirms nothing is left.
    expect(nagViolations(stack.synth.assembly)).toEqual([]);
  });
});
