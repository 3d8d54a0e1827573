import { App, CfnOutput, Stack, Validations, type AppProps, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { EdgeWebAcl } from './constructs/edge-web-acl';
import { AwsSolutionsChecks } from 'cdk-nag';
import { contactsSchema, DEFAULT_CONTACTS, type Contacts } from '../../shared/config';
import { FEATURE_FLAGS } from './feature-flags';
import { stageFromContext } from './stage';
import { EDGE_WEB_ACL_PARAMETER, VatManStack, type VatManStackProps } from './vat-man-stack';

const STACK_ID = 'VatManStack';
const EDGE_STACK_ID = 'VatManEdgeStack';

/** The WAF web ACL for CloudFront, in us-east-1 (constructs/edge-web-acl.ts). */
export class VatManEdgeStack extends Stack {
  readonly webAcl: EdgeWebAcl;
  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    this.webAcl = new EdgeWebAcl(this, 'Edge');
    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.webAcl.attrArn, description: `For the main stack: -c edgeWebAclArn=… or the SSM parameter ${EDGE_WEB_ACL_PARAMETER} in its region` });
  }
}

interface VatManAppProps {
  /** Context values, e.g. `{ stage: 'dev' }`; the CLI's `-c` values and cdk.json are read as usual. */
  readonly context?: AppProps['context'];
  /** Where the cloud assembly is written. @default the CLI's choice, or a temporary directory */
  readonly outdir?: string;
  /** Overrides of the stack props (the infra tests fix `env`). */
  readonly stackProps?: Partial<Omit<VatManStackProps, 'stage'>>;
}

/**
 * The CDK app: the one stack, checked by cdk-nag's AwsSolutions pack at synth (cdk-nag 3 is a
 * validation plugin: any unacknowledged finding fails the synth and is written to
 * validation-report.json in the cloud assembly). bin/app.ts and the infra tests both build it here.
 */
export const createVatManApp = (props: VatManAppProps = {}): { app: App; stack: VatManStack; edge: VatManEdgeStack } => {
  const app = new App({ outdir: props.outdir, context: { ...FEATURE_FLAGS, ...props.context } });
  const stage = stageFromContext(app.node);

  // -c botCheck=off turns the sign-up bot-check off by name; the default is reCAPTCHA with its
  // secret in the SSM parameter named by -c recaptchaSecretParameter and its public site key
  // either given as -c recaptchaSiteKey or read at deploy time from the SSM parameter named by
  // -c recaptchaSiteKeyParameter (default /vatman/recaptcha-site-key).
  const botCheckMode = String(app.node.tryGetContext('botCheck') ?? 'recaptcha');
  if (botCheckMode !== 'off' && botCheckMode !== 'recaptcha') throw new Error(`botCheck must be 'off' or 'recaptcha', not '${botCheckMode}'`);
  const siteKey = contextString(app, 'recaptchaSiteKey');
  if (botCheckMode === 'off' && siteKey) {
    throw new Error(`-c recaptchaSiteKey is set but botCheck is 'off': the web app would show a checkbox the API never checks. Drop one of the two.`);
  }
  const botCheck =
    botCheckMode === 'off'
      ? ({ mode: 'off' } as const)
      : ({
          mode: 'recaptcha',
          secretParameterName: contextString(app, 'recaptchaSecretParameter') ?? '/vatman/recaptcha-secret',
          siteKey,
          siteKeyParameterName: contextString(app, 'recaptchaSiteKeyParameter') ?? '/vatman/recaptcha-site-key',
        } as const);

  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  const stack = new VatManStack(app, STACK_ID, {
    // Environment-agnostic unless the CLI knows the account/region from the profile: synth
    // works offline without credentials either way.
    env: account || region ? { account, region } : undefined,
    description: `Vat-Man milk-vat monitoring (${stage})`,
    botCheck,
    contacts: contactsFromContext(app),
    farmFlagUserIds: (contextString(app, 'farmFlagUserIds') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    // -c dairyGatewayUrl (else the SSM parameter /vatman/dairy-gateway-url at deploy time) and
    // -c dairyGatewayTokenParameter (default /vatman/dairy-gateway-token, a SecureString).
    dairyGateway: { url: contextString(app, 'dairyGatewayUrl'), tokenParameterName: contextString(app, 'dairyGatewayTokenParameter') ?? '/vatman/dairy-gateway-token' },
    // -c watchmanRateMinutes: minutes between Watchman runs (default 60).
    ...(contextString(app, 'watchmanRateMinutes') !== undefined ? { watchmanRateMinutes: Number(contextString(app, 'watchmanRateMinutes')) } : {}),
    edgeWebAclArn: contextString(app, 'edgeWebAclArn'),
    // Web Push: -c vapidPublicKey (else the SSM parameter /vatman/vapid-public-key at deploy time),
    // -c vapidPrivateKeyParameter (default /vatman/vapid-private-key, a SecureString), -c vapidSubject.
    push: {
      ...(contextString(app, 'vapidPublicKey') ? { publicKey: contextString(app, 'vapidPublicKey') } : {}),
      ...(contextString(app, 'vapidPrivateKeyParameter') ? { privateKeyParameterName: contextString(app, 'vapidPrivateKeyParameter') } : {}),
      ...(contextString(app, 'vapidSubject') ? { subject: contextString(app, 'vapidSubject') } : {}),
    },
    ...props.stackProps,
    stage,
  });

  // CloudFront takes only web ACLs made in us-east-1, wherever the main stack is: a small stack
  // there holds it; its WebAclArn output goes to the main stack (-c edgeWebAclArn or the SSM
  // parameter EDGE_WEB_ACL_PARAMETER in the main region). Deploy it first (docs/architecture.md "Throttling").
  const edge = new VatManEdgeStack(app, EDGE_STACK_ID, { env: { account, region: 'us-east-1' }, description: `Vat-Man edge WAF web ACL (${stage})` });

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, edge };
};

/**
 * The provider's contacts: -c supportUrl, -c supportPhones (JSON), -c herdSiteUrl, -c salesEmail,
 * each over DEFAULT_CONTACTS, and -c installFormUrl and -c liveMonitoringUrl (no default); a value that is not a URL or an address stops the synth, naming it.
 */
const contactsFromContext = (app: App): Contacts => {
  const phones = contextString(app, 'supportPhones');
  let supportPhones: unknown = DEFAULT_CONTACTS.supportPhones;
  if (phones) {
    try {
      supportPhones = JSON.parse(phones);
    } catch {
      throw new Error(`-c supportPhones must be JSON like '[{"label":"Vat-Man","phone":"0800 000 000"}]', not ${phones}`);
    }
  }
  const parsed = contactsSchema.safeParse({
    supportUrl: contextString(app, 'supportUrl') ?? DEFAULT_CONTACTS.supportUrl,
    supportPhones,
    herdSiteUrl: contextString(app, 'herdSiteUrl') ?? DEFAULT_CONTACTS.herdSiteUrl,
    salesEmail: contextString(app, 'salesEmail') ?? DEFAULT_CONTACTS.salesEmail,
    installFormUrl: contextString(app, 'installFormUrl'),
    liveMonitoringUrl: contextString(app, 'liveMonitoringUrl'),
  });
  if (!parsed.success) throw new Error(`Contacts in CDK context: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
};

/** A context value as a trimmed string, or undefined when absent or blank. */
const contextString = (app: App, key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};
