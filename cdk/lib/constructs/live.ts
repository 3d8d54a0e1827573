import { Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { AllowedMethods, CachePolicy, type Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { LIVE_ROUTE_SELECTION } from '../../../shared/live/protocol';
import { LIVE_PORTS } from '../../../lambdas/ports/function-ports';
import { acknowledge, nagPseudo } from '../nag';
import { addSecretOriginBehaviour } from '../origin-behaviour';
import { functionEntry } from '../paths';
import { grantPorts } from '../port-grants';
import type { Auth } from './auth';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';

interface LiveProps {
  /** The web app's distribution (constructs/web.ts, with the WAF web ACL): the socket is reached at its `/live`. */
  readonly distribution: Distribution;
  /** The web app's address (`https://<distribution domain>`). */
  readonly siteUrl: string;
  /** Added to every request as ORIGIN_HEADER; $connect refuses a handshake without it (lambdas/live/live.ts). */
  readonly originSecret: ISecret;
  readonly auth: Auth;
  readonly data: Data;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: RetentionDays;
}

/** The stage's name: part of the management endpoint's path, and the path the browser connects to on the site. */
const STAGE = 'live';
/** The web distribution's behaviour for the socket: `wss://<site>/live` reaches the stage of that name. */
const LIVE_PATH_PATTERN = `/${STAGE}`;

/**
 * Live updates: an API Gateway WebSocket API whose one function (lambdas/live/handler.ts)
 * checks the Cognito token on $connect with aws-jwt-verify, forgets the connection on $disconnect,
 * and on `subscribe` lets a connection watch a farm the caller may see (the Connections table).
 * The ingest posts each new reading to the farm's connections through the management API
 * (@connections); both functions get that through their ports (cdk/lib/port-grants.ts, `liveApi`).
 */
export class Live extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly handler: VatManFunction;
  /** What the browser connects to (`wss://<site>/live`, through the web distribution), for the web app's config.json. */
  readonly url: string;
  /** The management API a function's liveSender port posts through (cdk/lib/port-grants.ts): the ingest's too. */
  readonly liveApi: { readonly connectionsArn: string; readonly nagConnectionsArn: string; readonly endpoint: string };

  constructor(scope: Construct, id: string, props: LiveProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.handler = new VatManFunction(this, 'Handler', {
      entry: functionEntry('live'),
      description: 'Vat-Man live updates WebSocket: $connect token check, $disconnect, subscribe to a farm',
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
      environment: {
        // The handshake must come through the web distribution (its WAF web ACL): CloudFront adds the header.
        ORIGIN_VERIFY: props.originSecret.secretValue.unsafeUnwrap(),
        USER_POOL_ID: props.auth.userPool.userPoolId,
        USER_POOL_CLIENT_ID: props.auth.webClient.userPoolClientId,
        JWT_ISSUER: props.auth.issuer,
      },
    });
    const integration = (name: string) => new WebSocketLambdaIntegration(name, this.handler.function);
    this.api = new WebSocketApi(this, 'Api', {
      apiName: `${stack.stackName}-live`,
      description: 'Vat-Man live updates',
      routeSelectionExpression: LIVE_ROUTE_SELECTION,
      connectRouteOptions: { integration: integration('ConnectIntegration') },
      disconnectRouteOptions: { integration: integration('DisconnectIntegration') },
      defaultRouteOptions: { integration: integration('DefaultIntegration') },
    });
    this.api.addRoute('subscribe', { integration: integration('SubscribeIntegration') });
    acknowledge(
      this.api,
      'APIG4',
      'The $connect route verifies the Cognito access token itself (aws-jwt-verify in lambdas/live, as the HTTP API authorizer would): a browser WebSocket cannot send an Authorization header, and a connection it refuses is never opened, so no other route can be reached without it.',
    );

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: props.removalPolicy });
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: STAGE,
      autoDeploy: true,
      throttle: { rateLimit: 50, burstLimit: 100 },
    });
    (this.stage.node.defaultChild as CfnStage).accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        requestTime: '$context.requestTime',
        routeKey: '$context.routeKey',
        eventType: '$context.eventType',
        status: '$context.status',
        connectionId: '$context.connectionId',
        integrationError: '$context.integrationErrorMessage',
      }),
    };
    // The browser connects through the web distribution (its WAF, the site's own origin):
    // wss://<site>/live → the stage. The handshake's headers (Sec-WebSocket-*) and its query string
    // (the token) go on, Host does not (API Gateway answers to its own); nothing is cached; the
    // origin secret's header proves the WAF was passed, and $connect refuses a handshake without it,
    // so the execute-api address cannot be used to go around the WAF.
    addSecretOriginBehaviour(props.distribution, LIVE_PATH_PATTERN, `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, props.originSecret, {
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_DISABLED,
    });
    this.url = `${props.siteUrl.replace(/^https:/, 'wss:')}${LIVE_PATH_PATTERN}`;

    const [partition, region, account, apiId] = [stack.partition, stack.region, stack.account, this.api.apiId].map((v) => nagPseudo(stack, v));
    this.liveApi = {
      endpoint: this.stage.callbackUrl,
      connectionsArn: stack.formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: `${STAGE}/POST/@connections/*` }),
      // How cdk-nag names that ARN in a finding.
      nagConnectionsArn: `arn:${partition}:execute-api:${region}:${account}:${apiId}/${STAGE}/POST/@connections/*`,
    };
    grantPorts(this.handler, LIVE_PORTS, { data: props.data, userPoolArn: props.auth.userPool.userPoolArn, liveApi: this.liveApi });
  }
}
