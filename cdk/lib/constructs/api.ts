import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpStage,
  LogGroupLogDestination,
  type IHttpRouteAuthorizer,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { ENDPOINTS, type Endpoint } from '../../../shared/api/endpoints';
import { API_THROTTLE } from '../../../shared/api/throttle';
import { ENDPOINT_PORTS } from '../../../lambdas/ports/function-ports';
import { INSTALLER_TIMEOUT_S } from '../../../lambdas/ports/function-settings';
import { apiHandlerEntry } from '../paths';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { grantPorts, type PushGrantConfig } from '../port-grants';
import { acknowledge } from '../nag';
import type { Alerts } from './alerts';
import type { Auth } from './auth';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';


/**
 * The bot-check every API Lambda is configured with (lambdas/adapters/bot-check). Never implicit:
 * 'recaptcha' reads its secret from an SSM parameter at deploy time (a missing parameter fails
 * the deploy, not a sign-up); 'off' must be asked for by name.
 */
export type BotCheckConfig =
  | { readonly mode: 'off' }
  | {
      readonly mode: 'recaptcha';
      /** SSM parameter holding the reCAPTCHA secret (read at deploy time). */
      readonly secretParameterName: string;
      /**
       * The public site key for the web app's checkbox, when given on the command line.
       * @default read at deploy time from the SSM parameter `siteKeyParameterName`
       */
      readonly siteKey?: string;
      /** SSM parameter holding the site key, used when `siteKey` is not given. */
      readonly siteKeyParameterName: string;
    };

interface ApiProps {
  readonly auth: Auth;
  /** Web Push's VAPID configuration (subscriptions are checked, acknowledgements verified). */
  readonly push: PushGrantConfig;
  readonly data: Data;
  readonly alerts: Alerts;
  /** The bot-check of spec §7 (sign-up, password reset); see BotCheckConfig. */
  readonly botCheck: BotCheckConfig;
  /** Where enquiries are mailed (farmer §2.16): subscribed to the enquiry topic. */
  readonly salesEmail: string;
  /** The IoT policy every unit's certificate gets (the installer's NEW_INSTALL attaches it). */
  readonly devicePolicyName: string;
  /** The ingest's dead-letter queue, counted by the fleet overview (FLEET_SUMMARY). */
  readonly ingestDeadLetters: IQueue;
  /**
   * The user ids (Cognito subs) that may set the farm flags (operator §6's fixed list), given to
   * the functions whose actions use the `flagEditors` port as FARM_FLAG_USER_IDS.
   * @default [] (nobody)
   */
  readonly farmFlagUserIds?: readonly string[];
  /**
   * What happens to log groups when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
}

/** `farmer-log-fonterra` → `FarmerLogFonterra`: readable construct ids. */
const pascalCase = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * The HTTP API of spec §7: one POST route and one Lambda per entry of `ENDPOINTS`. Routes marked
 * `jwt` sit behind API Gateway's JWT authorizer for the Cognito pool; the `public` route
 * (/api/user: sign-in, sign-up, password reset happen before there is a token) has none and its
 * Lambda verifies the bearer itself for the other types.
 */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogGroup: LogGroup;
  readonly authorizer: HttpJwtAuthorizer;
  /** The Lambda of each endpoint, keyed by its path. */
  readonly functions: ReadonlyMap<string, VatManFunction>;
  /** The functions whose actions send controller settings to a vat (the `devices` port). */
  readonly commandSenders: readonly VatManFunction[];
  /** SURVEY_SUBMIT's mail to the sales address. */
  readonly enquiryTopic: Topic;
  /** The reCAPTCHA secret's SSM parameter (name and ARN) when the bot-check is on; the pre-sign-up trigger reads it too. */
  readonly botCheckSecret?: { readonly name: string; readonly arn: string };
  /** The API's base URL without a trailing slash, e.g. `https://abc123.execute-api.eu-west-1.amazonaws.com`. */
  readonly url: string;
  /**
   * The secret the API's CloudFront distribution adds to each request (constructs/api-edge.ts) and
   * every endpoint Lambda checks (`ORIGIN_VERIFY`, lambdas/lib/origin-check.ts): a request to the
   * execute-api address, around the WAF, is refused.
   */
  readonly originSecret: Secret;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { auth } = props;
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${Stack.of(this).stackName}-api`,
      description: 'Vat-Man API (spec §7)',
      // No CORS: browsers call the API on the web app's own origin (its distribution's `/api/*`
      // behaviour, constructs/api-edge.ts), so no preflight precedes a call.
      // The stage below is made explicitly so it can carry throttling and access logs.
      createDefaultStage: false,
    });

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', { retention: logRetention, removalPolicy });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        // One JSON object per request, so Logs Insights can filter on any field.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
    this.url = this.httpApi.apiEndpoint;

    this.authorizer = new HttpJwtAuthorizer('CognitoJwt', auth.issuer, {
      jwtAudience: [auth.webClient.userPoolClientId],
    });

    this.originSecret = new Secret(this, 'OriginSecret', {
      description: 'Vat-Man: the header value CloudFront adds to API requests; the API refuses requests without it',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy,
    });
    acknowledge(
      this.originSecret,
      'SMG4',
      'Not rotated automatically: CloudFront and the Lambdas read it at deploy time, so a new value takes a deploy (rotate by deleting the secret\'s value and deploying).',
    );

    const functions = new Map<string, VatManFunction>();
    const commandSenders: VatManFunction[] = [];
    // The reCAPTCHA secret: an SSM SecureString the installer puts there (README), read at run time.
    const { botCheck } = props;
    const botCheckSecret = (this.botCheckSecret =
      botCheck.mode === 'recaptcha'
        ? {
            name: botCheck.secretParameterName,
            arn: Stack.of(this).formatArn({ service: 'ssm', resource: 'parameter', resourceName: botCheck.secretParameterName.replace(/^\//, '') }),
          }
        : undefined);
    // Enquiries (SURVEY_SUBMIT) go to the sales address by SNS email; the address confirms the
    // subscription once, from AWS's email.
    this.enquiryTopic = new Topic(this, 'EnquiryTopic', { displayName: 'Vat-Man enquiries', enforceSSL: true });
    this.enquiryTopic.addSubscription(new EmailSubscription(props.salesEmail));
    acknowledge(
      this.enquiryTopic,
      'SNS2',
      'The topic carries only enquiries that SNS then sends as plain email to the sales address; encryption at rest would add a KMS key for no reader it keeps out.',
    );
    for (const endpoint of ENDPOINTS) {
      const fn = this.endpointFunction(endpoint, props, removalPolicy, logRetention);
      functions.set(endpoint.path, fn);
      // Least privilege: the function gets what its actions' ports need, nothing else.
      const ports = ENDPOINT_PORTS[endpoint.path];
      if (ports.includes('flagEditors')) fn.addEnvironment('FARM_FLAG_USER_IDS', (props.farmFlagUserIds ?? []).join(','));
      const { deviceCommands, unitChecks } = grantPorts(fn, ports, {
        data: props.data,
        userPoolArn: auth.userPool.userPoolArn,
        ...(botCheckSecret ? { botCheckSecret } : {}),
        enquiryTopic: this.enquiryTopic,
        devicePolicyName: props.devicePolicyName,
        alertTopics: props.alerts,
        ingestDeadLetters: props.ingestDeadLetters,
        push: props.push,
      });
      if (deviceCommands) commandSenders.push(fn);
      // Check Install's commands to units go out through the same data endpoint (the settings senders get it from the alert engine).
      const iotDataEndpoint = this.node.tryGetContext('iotDataEndpoint') as string | undefined;
      if (unitChecks && iotDataEndpoint) fn.addEnvironment('IOT_DATA_ENDPOINT', iotDataEndpoint);
      this.httpApi.addRoutes({
        path: endpoint.path,
        methods: [HttpMethod.POST],
        integration: new HttpLambdaIntegration(`${pascalCase(endpoint.handler)}Integration`, fn.function),
        authorizer: this.routeAuthorizer(endpoint),
      });
    }
    this.functions = functions;
    this.commandSenders = commandSenders;

    if (ENDPOINTS.some((e) => e.auth === 'public')) {
      acknowledge(
        this.httpApi,
        'APIG4',
        'Only the public endpoints of shared/api/endpoints.ts (/api/user) have no authorizer: sign-in, sign-up and password reset are called before there is a token, and that Lambda verifies the Cognito JWT itself for every other type.',
      );
    }

  }

  private routeAuthorizer(endpoint: Endpoint): IHttpRouteAuthorizer {
    switch (endpoint.auth) {
      case 'jwt':
        return this.authorizer;
      case 'public':
        return new HttpNoneAuthorizer();
    }
  }

  private endpointFunction(
    endpoint: Endpoint,
    { auth, botCheck }: ApiProps,
    removalPolicy: RemovalPolicy,
    logRetention: RetentionDays,
  ): VatManFunction {
    const fn = new VatManFunction(this, pascalCase(endpoint.handler), {
      entry: apiHandlerEntry(endpoint.handler),
      // New Install's run is a dozen IoT and table calls (lambdas/installer/run-engine.ts); its lease assumes this timeout.
      ...(endpoint.path === '/api/installer' ? { timeout: Duration.seconds(INSTALLER_TIMEOUT_S) } : {}),
      description: `Vat-Man POST ${endpoint.path}`,
      tracing: true,
      removalPolicy,
      logRetention,
      environment: {
        USER_POOL_ID: auth.userPool.userPoolId,
        USER_POOL_CLIENT_ID: auth.webClient.userPoolClientId,
        JWT_ISSUER: auth.issuer,
        JWKS_URI: auth.jwksUri,
        BOT_CHECK: botCheck.mode,
        ORIGIN_VERIFY: this.originSecret.secretValue.unsafeUnwrap(),
      },
    });
    return fn;
  }
}
