import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISource } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { Alerts } from './constructs/alerts';
import { AlertEngine } from './constructs/alert-engine';
import { Api, type BotCheckConfig } from './constructs/api';
import { VatManFunction } from './constructs/vat-man-function';
import { triggerEntry } from './paths';
import { ApiEdge } from './constructs/api-edge';
import { LambdaVersion, UserPoolOperation } from 'aws-cdk-lib/aws-cognito';
import { Policy } from 'aws-cdk-lib/aws-iam';
import { INGEST_PORTS, PRE_SIGN_UP_PORTS, PRE_TOKEN_GENERATION_PORTS } from '../../lambdas/ports/function-ports';
import { grantPorts, type PushGrantConfig } from './port-grants';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Auth } from './constructs/auth';
import { Data } from './constructs/data';
import { Live } from './constructs/live';
import { DairyLink } from './constructs/dairy-link';
import { OperatorAlarms } from './constructs/operator-alarms';
import { OperatorDashboard } from './constructs/operator-dashboard';
import { Telemetry } from './constructs/telemetry';
import { InstallReconciler } from './constructs/install-reconciler';
import { Watchman } from './constructs/watchman';
import { Web } from './constructs/web';
import { DEFAULT_CONTACTS, type Contacts } from '../../shared/config';
import { frontendSource } from './frontend-asset';
import { removalPolicyFor, type Stage } from './stage';

/** Where the deployer puts VatManEdgeStack's web ACL ARN when not given as -c edgeWebAclArn. */
export const EDGE_WEB_ACL_PARAMETER = '/vatman/edge-web-acl-arn';

export interface VatManStackProps extends StackProps {
  /** dev stacks are disposable (everything is destroyed with the stack); prod keeps its data. */
  readonly stage: Stage;
  /**
   * The built web app to upload.
   * @default the Vite build of frontend/, made at synth (frontend-asset.ts)
   */
  readonly webBuild?: ISource;
  /**
   * The bot-check on sign-up and password reset (spec §7).
   * @default recaptcha, secret in the SSM parameter /vatman/recaptcha-secret
   */
  readonly botCheck?: BotCheckConfig;
  /**
   * The provider's support page and phones, the herd site, the sales address (cdk/lib/app.ts reads them from context).
   * @default DEFAULT_CONTACTS
   */
  readonly contacts?: Contacts;
  /**
   * Who may set the farm flags (operator §6): Cognito subs, from `-c farmFlagUserIds=<sub>,<sub>`.
   * @default [] (nobody)
   */
  readonly farmFlagUserIds?: readonly string[];
  /**
   * The dairy company's gateway: its URL and the SSM SecureString of its token.
   * @default URL from the SSM parameter /vatman/dairy-gateway-url at deploy time, token in /vatman/dairy-gateway-token
   */
  readonly dairyGateway?: { readonly url?: string; readonly tokenParameterName: string };
  /**
   * Minutes between Watchman runs, from `-c watchmanRateMinutes`.
   * @default 60
   */
  readonly watchmanRateMinutes?: number;
  /**
   * The ARN of the WAF web ACL (scope CLOUDFRONT, made in us-east-1 by VatManEdgeStack) for the web
   * and API distributions: -c edgeWebAclArn, else the SSM parameter /vatman/edge-web-acl-arn in
   * this stack's region at deploy time (a deploy without either fails loudly). docs/architecture.md "Throttling".
   */
  readonly edgeWebAclArn?: string;
  /**
   * Web Push (decisions 090-092): the VAPID public key (-c vapidPublicKey, else the SSM String
   * parameter /vatman/vapid-public-key at deploy time), the SecureString of its private key
   * (-c vapidPrivateKeyParameter) and the contact push services see (-c vapidSubject).
   * @default public key from SSM; private key in /vatman/vapid-private-key; subject the site's URL
   */
  readonly push?: { readonly publicKey?: string; readonly privateKeyParameterName?: string; readonly subject?: string };
}

/** Vat-Man in one stack: Cognito, DynamoDB, the HTTP API and its Lambdas, SNS alerts, the web app. */
export class VatManStack extends Stack {
  readonly auth: Auth;
  readonly data: Data;
  readonly alerts: Alerts;
  readonly api: Api;
  readonly web: Web;
  readonly apiEdge: ApiEdge;
  readonly telemetry: Telemetry;
  readonly alertEngine: AlertEngine;
  readonly dairyLink: DairyLink;
  readonly watchman: Watchman;
  readonly installReconciler: InstallReconciler;
  readonly operatorAlarms: OperatorAlarms;
  readonly operatorDashboard: OperatorDashboard;
  readonly live: Live;

  constructor(scope: Construct, id: string, props: VatManStackProps) {
    super(scope, id, props);
    const removalPolicy = removalPolicyFor(props.stage);
    // Prod keeps a quarter of logs for incident follow-up and farmer queries; dev a week.
    const logRetention = props.stage === 'dev' ? RetentionDays.ONE_WEEK : RetentionDays.THREE_MONTHS;

    const botCheck: BotCheckConfig = props.botCheck ?? {
      mode: 'recaptcha',
      secretParameterName: '/vatman/recaptcha-secret',
      siteKeyParameterName: '/vatman/recaptcha-site-key',
    };
    const contacts = props.contacts ?? DEFAULT_CONTACTS;
    this.auth = new Auth(this, 'Auth', { removalPolicy });
    this.data = new Data(this, 'Data', { removalPolicy });
    this.alerts = new Alerts(this, 'Alerts');
    const webAclArn = props.edgeWebAclArn ?? StringParameter.valueForStringParameter(this, EDGE_WEB_ACL_PARAMETER);
    this.web = new Web(this, 'Web', { removalPolicy, logRetention, webAclArn });
    this.telemetry = new Telemetry(this, 'Telemetry', { data: this.data, removalPolicy, logRetention });
    const vapidPublicKey = props.push?.publicKey ?? StringParameter.valueForStringParameter(this, '/vatman/vapid-public-key');
    const push: PushGrantConfig = {
      publicKey: vapidPublicKey,
      privateKeyParameterName: props.push?.privateKeyParameterName ?? '/vatman/vapid-private-key',
      subject: props.push?.subject ?? this.web.url,
      ackUrl: `${this.web.url}/api/user`,
    };
    this.api = new Api(this, 'Api', {
      auth: this.auth,
      data: this.data,
      alerts: this.alerts,
      botCheck,
      salesEmail: contacts.salesEmail,
      farmFlagUserIds: props.farmFlagUserIds ?? [],
      devicePolicyName: this.telemetry.devicePolicy.ref,
      ingestDeadLetters: this.telemetry.deadLetters,
      push,
      removalPolicy,
      logRetention,
    });
    // The web app calls the API through CloudFront, where the WAF web ACL limits each IP,
    // on its own origin (the web distribution's /api/*: no CORS preflight).
    this.apiEdge = new ApiEdge(this, 'ApiEdge', { httpApi: this.api.httpApi, distribution: this.web.distribution, siteUrl: this.web.url, originSecret: this.api.originSecret });
    // The endpoint Lambdas start requiring the origin header only once CloudFront sends it
    // everywhere: CloudFormation finishes a distribution when it is deployed to every edge, so the
    // first deploy of the check (or of a new secret's header) refuses no farmer in between.
    for (const fn of this.api.functions.values()) fn.function.node.addDependency(this.apiEdge.distribution);

    // Alerts: the engine in the ingest, the scheduled sweep, controller-settings replies.
    this.alertEngine = new AlertEngine(this, 'AlertEngine', {
      data: this.data,
      alerts: this.alerts,
      userPool: this.auth.userPool,
      commandSenders: this.api.commandSenders,
      iotDataEndpoint: this.node.tryGetContext('iotDataEndpoint') as string | undefined,
      push,
      removalPolicy,
      logRetention,
    });

    // The dairy-company link: the gateway's URL from context or, by default, SSM at
    // deploy time (a deploy without it fails loudly); its token stays in SSM and is read at run time.
    // Live updates: the WebSocket API the dashboard listens on; the ingest pushes to it.
    this.live = new Live(this, 'Live', {
      distribution: this.web.distribution,
      siteUrl: this.web.url,
      originSecret: this.api.originSecret,
      auth: this.auth,
      data: this.data,
      removalPolicy,
      logRetention,
    });
    // As the API's: the handshake check starts once CloudFront sends the header from every edge.
    this.live.handler.function.node.addDependency(this.web.distribution);
    // The ingest's ports: its tables, the alert engine's topics, the live push's connections.
    grantPorts(this.telemetry.ingest, INGEST_PORTS, { data: this.data, alertTopics: this.alerts, liveApi: this.live.liveApi, push });

    const dairyGateway = props.dairyGateway ?? { tokenParameterName: '/vatman/dairy-gateway-token' };
    this.dairyLink = new DairyLink(this, 'DairyLink', {
      data: this.data,
      gatewayUrl: dairyGateway.url ?? StringParameter.valueForStringParameter(this, '/vatman/dairy-gateway-url'),
      tokenParameterName: dairyGateway.tokenParameterName,
      removalPolicy,
      logRetention,
    });

    // Watchman: hourly unless -c watchmanRateMinutes says otherwise.
    this.watchman = new Watchman(this, 'Watchman', { data: this.data, rateMinutes: props.watchmanRateMinutes, removalPolicy, logRetention });
    // New Install and reissue runs stopped part way are finished or undone (docs/decisions/040).
    this.installReconciler = new InstallReconciler(this, 'InstallReconciler', { data: this.data, devicePolicyName: this.telemetry.devicePolicy.ref, removalPolicy, logRetention });
    /** A Cognito trigger: its function from lambdas/triggers/<entry>.ts, attached to the pool. */
    const trigger = (id: string, entry: string, description: string, operation: UserPoolOperation, environment: Record<string, string> = {}, version?: LambdaVersion) => {
      const fn = new VatManFunction(this, id, { entry: triggerEntry(entry), description, removalPolicy, logRetention, environment });
      this.auth.userPool.addTrigger(operation, fn.function, version);
      return fn;
    };

    // The forgot-password email carries a link to the web app's reset page (spec §2.1), the email
    // verification a link to the profile page (§2.10), the phone's text the bare code.
    trigger('CustomMessageTrigger', 'custom-message', 'Vat-Man Cognito CustomMessage: links in the reset and verification emails', UserPoolOperation.CUSTOM_MESSAGE, { WEB_URL: this.web.url });

    // Every self-service sign-up passes the bot-check, through USER_SIGN_UP or straight
    // to Cognito's public SignUp; the answer rides in ValidationData (lambdas/triggers/sign-up-bot-check.ts).
    const secret = this.api.botCheckSecret;
    const preSignUp = trigger('PreSignUpTrigger', 'pre-sign-up', 'Vat-Man Cognito PreSignUp: the bot-check on every self-service sign-up', UserPoolOperation.PRE_SIGN_UP, { BOT_CHECK: botCheck.mode });
    grantPorts(preSignUp, PRE_SIGN_UP_PORTS, { data: this.data, ...(secret ? { botCheckSecret: secret } : {}) });

    // Every token says whether its user has an authenticator app; the operator rule
    // refuses operator actions without it. Version 2 of the event (Essentials plan) reaches the
    // access token, the bearer the API reads. The read of the user is a separate policy: the
    // function's own default policy would make the pool wait on the role and the role on the pool.
    const preTokenGeneration = trigger(
      'PreTokenGenerationTrigger',
      'pre-token-generation',
      'Vat-Man Cognito PreTokenGeneration: the TOTP-enrolled claim on every token',
      UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG,
      {},
      LambdaVersion.V2_0,
    );
    grantPorts(preTokenGeneration, PRE_TOKEN_GENERATION_PORTS, {
      data: this.data,
      userPoolArn: this.auth.userPool.userPoolArn,
      cognitoPolicy: new Policy(this, 'PreTokenGenerationReadUser', { roles: [preTokenGeneration.role] }),
    });

    this.web.deploySite(props.webBuild ?? frontendSource(), {
      apiUrl: this.apiEdge.url,
      liveUrl: this.live.url,
      region: this.region,
      userPoolId: this.auth.userPool.userPoolId,
      userPoolClientId: this.auth.webClient.userPoolClientId,
      supportUrl: contacts.supportUrl,
      supportPhones: contacts.supportPhones,
      herdSiteUrl: contacts.herdSiteUrl,
      vapidPublicKey,
      ...(contacts.installFormUrl ? { installFormUrl: contacts.installFormUrl } : {}),
      ...(contacts.liveMonitoringUrl ? { liveMonitoringUrl: contacts.liveMonitoringUrl } : {}),
      // The checkbox's public site key: from -c recaptchaSiteKey, else SSM at deploy time (like the
      // secret), so `cdk synth` needs no flag and a deploy without the parameter fails loudly.
      ...(botCheck.mode === 'recaptcha'
        ? { recaptchaSiteKey: botCheck.siteKey ?? StringParameter.valueForStringParameter(this, botCheck.siteKeyParameterName) }
        : {}),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.apiEdge.url, description: "The API through CloudFront and its WAF web ACL, as the web app calls it: the site's own address, endpoints under /api/ (no trailing slash)" });
    new CfnOutput(this, 'WebUrl', { value: this.web.url, description: 'The web app (CloudFront)' });
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.webClient.userPoolClientId });
    new CfnOutput(this, 'Region', { value: this.region });
    new CfnOutput(this, 'DevicePolicyName', {
      value: this.telemetry.devicePolicy.ref,
      description: 'IoT policy to attach to each vat device certificate (confined to its thing name)',
    });
    new CfnOutput(this, 'IngestDeadLetterQueueUrl', { value: this.telemetry.deadLetters.queueUrl, description: 'Device messages the ingest could not process (14 days)' });
    new CfnOutput(this, 'IngestStreamName', { value: this.telemetry.stream.streamName, description: 'The ingest stream (7 days): npm run replay-dlq -- --aws re-drives dead-lettered batches from it' });

    // One SNS topic for what an operator must hear about (-c operatorAlarmEmail subscribes an address).
    const smsSpend = this.node.tryGetContext('smsSpendAlarmUsd') as string | number | undefined;
    this.operatorAlarms = new OperatorAlarms(this, 'OperatorAlarms', {
      telemetry: this.telemetry,
      ...(smsSpend === undefined ? {} : { smsSpendUsd: Number(smsSpend) }),
      ...(typeof this.node.tryGetContext('operatorAlarmEmail') === 'string' ? { email: this.node.tryGetContext('operatorAlarmEmail') as string } : {}),
    });
    // The operators' dashboard: the functions' Powertools metrics beside these alarms.
    this.operatorDashboard = new OperatorDashboard(this, 'OperatorDashboard', { alarms: this.operatorAlarms });
    new CfnOutput(this, 'OperatorAlarmTopicArn', { value: this.operatorAlarms.topic.topicArn, description: 'Operator alarms (ingest lag, errors, dead letters, SMS spend): subscribe operators here' });
  }
}
